/**
 * `serveSkills`: a folder of skills (or any resolver) as a Streamable HTTP MCP server.
 *
 * @module
 */

import type { IncomingMessage, ServerResponse } from "node:http";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SkillCatalog } from "./_catalog.ts";
import { admit, listen } from "./_endpoint.ts";
import { acceptsJsonOnly, bearerCheck } from "./_http.ts";
import { buildMcpServer } from "./_mcp.ts";
import { answerOwn, modernVersion, ownsLegacy } from "./_own.ts";
import { Sessions } from "./_sessions.ts";
import { serveStdio } from "./_stdio.ts";
import type { ServeSkillsOptions, SkillsServer } from "./types.ts";

const POLL_MS = 1_000;

/** Idle stateless MCP servers kept for reuse. */
const IDLE_SERVERS = 16;

/** The implementation of `serveSkills` (mod.ts loads this module lazily: see there). */
export async function serveSkills(options: ServeSkillsOptions = {}): Promise<SkillsServer> {
  if (options.transport === "stdio") return await serveStdio(options);
  if (options.transport !== undefined && options.transport !== "http") {
    throw new TypeError(
      `Cannot serve skills: transport must be "http" or "stdio", got ${
        JSON.stringify(options.transport)
      }`,
    );
  }
  if (options.token !== undefined && options.token === "") {
    throw new TypeError("Cannot serve skills: token must not be empty");
  }
  const host = options.host ?? "127.0.0.1";
  const catalog = new SkillCatalog(options);
  const idle: ReturnType<typeof buildMcpServer>[] = [];
  const sessions = options.sessions === true ? new Sessions(catalog, POLL_MS) : undefined;
  const authorized = options.token === undefined ? undefined : bearerCheck(options.token);
  const gate = {
    host,
    allowedOrigins: options.allowedOrigins,
    authenticate: (header: string | undefined) =>
      authorized === undefined || authorized(header) ? "" : undefined,
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, note: (rpc: string) => void) => {
    const admitted = await admit(req, res, gate);
    if (admitted === undefined) return;
    const { body, rpc, cors } = admitted;
    if (rpc !== undefined) note(rpc);
    const message = (Array.isArray(body) ? undefined : body) as Parameters<typeof ownsLegacy>[0];
    const modern = req.method === "POST" ? modernVersion(req, message) : undefined;
    if (message !== undefined && (modern !== undefined || ownsLegacy(message))) {
      const answer = await answerOwn(catalog, req, message!, modern);
      if (answer.status === 202) return void res.writeHead(202).end();
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      return void res.end(JSON.stringify(answer.body));
    }
    if (sessions !== undefined) return await sessions.handle(req, res, body, rpc, cors);
    if (req.method !== "POST") {
      res.writeHead(405, { ...cors, Allow: "POST, OPTIONS" }).end();
      return;
    }
    // Stateless: a new transport per request (the SDK requires it), but servers are reused:
    // building one per request cost about a third of the throughput (bench/serve.ts).
    const mcp = idle.pop() ?? buildMcpServer(catalog);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: acceptsJsonOnly(req),
    });
    res.on("close", () => {
      transport.close().catch(() => {}).finally(() => {
        if (!mcp.isConnected() && idle.length < IDLE_SERVERS) idle.push(mcp);
        else mcp.close().catch(() => {});
      });
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const listening = await listen(handle, { host, port: options.port, log: options.log });
  return {
    url: listening.url,
    skills: () => catalog.served(),
    closed: listening.closed,
    close: () => listening.close(async () => await sessions?.close()),
  };
}
