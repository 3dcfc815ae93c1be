// A scripted 2025 MCP server for the MCP source tests ("lab"): the fault server routing each
// method, listing the skill `star` as a resource; it can hold any request unanswered and push any
// notification on its GET stream, which no real server does on demand.
import type http from "node:http";
import { type FaultServer, rpcResult, startFaultServer } from "../mcp/_fault_server.ts";
import { skillDoc } from "./_helpers.ts";

/** A scripted 2025 server listing the skill `star` as a resource. */
export interface Lab {
  url: string;
  fault: FaultServer;
  /** Methods whose requests are held unanswered (until `close`). */
  hold: Set<string>;
  /** How many requests of `method` arrived. */
  count(method: string): number;
  /** The open GET streams. */
  streams: http.ServerResponse[];
  /** Push a notification on every open GET stream. */
  notify(method: string, params?: Record<string, unknown>): void;
  /** The `notifications/cancelled` received: the cancelled request's method and the reason. */
  cancels(): { method: string; reason: string }[];
  close(): Promise<void>;
}

export async function startLab(options: { skills?: boolean } = {}): Promise<Lab> {
  const fault = await startFaultServer();
  fault.lifecycle = true; // server/discover refused: the client speaks 2025 (initialize)
  const hold = new Set<string>();
  const streams: http.ServerResponse[] = [];
  const capabilities = {
    resources: { listChanged: true },
    ...(options.skills ? { extensions: { "io.modelcontextprotocol/skills": {} } } : {}),
  };
  fault.fallback = ({ req, res, rpc }) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.flushHeaders();
      streams.push(res);
      return;
    }
    const method = rpc?.method;
    if (rpc?.id === undefined) return void res.writeHead(202).end();
    if (hold.has(method)) return; // never answered
    const result = method === "initialize"
      ? {
        protocolVersion: "2025-11-25",
        capabilities,
        serverInfo: { name: "lab", version: "1.0.0" },
      }
      : method === "resources/list"
      ? { resources: [{ uri: "skill://star", name: "star", mimeType: "text/markdown" }] }
      : method === "resources/templates/list"
      ? { resourceTemplates: [] }
      : method === "resources/read"
      ? {
        contents: [{
          uri: rpc.params.uri,
          mimeType: "text/markdown",
          text: skillDoc("star", "STAR. Use when mapping."),
        }],
      }
      : {};
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(rpcResult(rpc, result)));
  };
  const methods = () => fault.received.map((r) => r.rpc?.method as string | undefined);
  return {
    url: fault.url,
    fault,
    hold,
    streams,
    count: (method) => methods().filter((m) => m === method).length,
    notify(method, params) {
      const data = JSON.stringify({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
      for (const stream of streams) stream.write(`data: ${data}\n\n`);
    },
    cancels() {
      const byId = new Map(fault.received.map((r) => [r.rpc?.id, r.rpc?.method]));
      return fault.received.filter((r) => r.rpc?.method === "notifications/cancelled").map((r) => ({
        method: String(byId.get(r.rpc.params?.requestId)),
        reason: String(r.rpc.params?.reason),
      }));
    },
    close: () => fault.close(),
  };
}

/** Runs `fn` against a fresh lab, closed afterwards. */
export async function withLab(
  fn: (lab: Lab) => Promise<void>,
  options: { skills?: boolean } = {},
): Promise<void> {
  const lab = await startLab(options);
  try {
    await fn(lab);
  } finally {
    await lab.close();
  }
}
