// Private: sessions (`sessions: true`): one MCP server and transport per `Mcp-Session-Id`, and
// `notifications/resources/list_changed` when the served skills change. A session with an open
// GET stream is told by a poller (every `pollMs`); any other is told on its next list, read or
// tool call, on that request's own stream (clients that never open a GET stream still hear it).

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { SkillCatalog } from "./_catalog.ts";
import { acceptsJsonOnly, rpcError } from "./_http.ts";
import { InFlight } from "./_in_flight.ts";
import { buildMcpServer } from "./_mcp.ts";

interface Session {
  mcp: McpServer;
  transport: StreamableHTTPServerTransport;
  /** The catalog version this session was last told about. */
  seen: string;
  /** Open standalone GET streams. */
  streams: number;
  /** Its requests' ids in flight: one reused while in flight is refused. */
  inFlight: InFlight;
}

/** The open sessions of one server. */
export class Sessions {
  readonly #catalog: SkillCatalog;
  readonly #open = new Map<string, Session>();
  readonly #timer: ReturnType<typeof setInterval>;
  #polling = false;

  constructor(catalog: SkillCatalog, pollMs: number) {
    this.#catalog = catalog;
    this.#timer = setInterval(() => this.#poll(), pollMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Route one request (body already parsed) to its session, or open one on `initialize`. */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    rpc: string | undefined,
    headers: Record<string, string>,
  ): Promise<void> {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = this.#open.get(id);
      if (session === undefined) return rpcError(res, 404, "Session not found", headers, -32001);
      if (req.method === "GET") {
        session.streams++;
        res.on("close", () => session.streams--);
      }
      if (req.method === "POST") {
        acceptsJsonOnly(req);
        if (!session.inFlight.admit(body, res, headers)) return;
      }
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST" || rpc !== "initialize") {
      return rpcError(res, 400, "Bad Request: No valid session ID provided", headers);
    }
    const version = (await this.#catalog.snapshot()).version;
    const session: Session = { seen: version, streams: 0, inFlight: new InFlight() } as Session;
    session.mcp = buildMcpServer(this.#catalog, async (notify) => {
      const now = (await this.#catalog.snapshot()).version;
      if (now === session.seen) return;
      session.seen = now;
      await notify();
    });
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: acceptsJsonOnly(req),
      onsessioninitialized: (sessionId) => void this.#open.set(sessionId, session),
    });
    session.transport.onclose = () => {
      const sessionId = session.transport.sessionId;
      if (sessionId !== undefined) this.#open.delete(sessionId);
      session.mcp.close().catch(() => {});
    };
    await session.mcp.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
  }

  /** Tell sessions with an open GET stream that the skills changed. */
  async #poll(): Promise<void> {
    const listening = [...this.#open.values()].filter((session) => session.streams > 0);
    if (this.#polling || listening.length === 0) return;
    this.#polling = true;
    try {
      const now = (await this.#catalog.snapshot()).version;
      for (const session of listening) {
        if (session.seen === now) continue;
        session.seen = now;
        await session.mcp.server.sendResourceListChanged().catch(() => {});
      }
    } catch {
      // An unreadable folder is retried on the next tick.
    } finally {
      this.#polling = false;
    }
  }

  /** Stop polling and close every session. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    const open = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(open.map(async (session) => {
      await session.transport.close().catch(() => {});
      await session.mcp.close().catch(() => {});
    }));
  }
}
