// A stub 2026-07-28 MCP server on 127.0.0.1 for the skills extension (SEP-2640): it answers each
// method with what a test gives it, so tests can list entries no real server would (broken,
// ambiguous, "dynamic", raw front matter). Used by test/mcp/skills (through its _skills.ts) and
// by test/resolve's tests of the MCP skill source.
import http from "node:http";
import { listenLocal } from "./_servers.ts";

/** Answers one method: its result from the request's params. */
export type Answer = (params: Record<string, unknown>) => unknown;
/** An answer that makes the stub reply 503 Service Unavailable. */
export const BUSY = Symbol("busy");
const ERROR = Symbol("error");

/** An answer that makes the stub reply a JSON-RPC error with `code` and `message`. */
export function rpcError(code: number, message: string): unknown {
  return { [ERROR]: { code, message } };
}

/** A running stub: its URL, the methods it was called with, in order, and how to stop it. */
export interface SkillsStub {
  url: string;
  calls: string[];
  close(): Promise<void>;
}

/**
 * A server (skills extension declared unless `plain`, or the given `capabilities`) answering by
 * `answers`; a method without an answer gets `{}`.
 */
export async function startSkillsStub(
  answers: Record<string, Answer>,
  plain = false,
  capabilities?: Record<string, unknown>,
): Promise<SkillsStub> {
  const extensions = plain ? {} : { "io.modelcontextprotocol/skills": {} };
  const all: Record<string, Answer> = {
    "server/discover": () => ({
      supportedVersions: ["2026-07-28"],
      capabilities: capabilities ?? { resources: {}, extensions },
    }),
    ...answers,
  };
  const calls: string[] = [];
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const rpc = JSON.parse(body);
    calls.push(rpc.method);
    const result = all[rpc.method]?.(rpc.params ?? {}) ?? {};
    if (result === BUSY) return void res.writeHead(503).end();
    res.writeHead(200, { "content-type": "application/json" });
    const error = (result as { [ERROR]?: unknown })[ERROR];
    res.end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, ...(error ? { error } : { result }) }));
  });
  const listening = await listenLocal(server);
  return {
    url: `http://127.0.0.1:${listening.port}/mcp`,
    calls,
    close: () => listening.close(),
  };
}
