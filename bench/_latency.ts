// Private: a loopback proxy that adds a fixed delay before forwarding each HTTP request,
// standing in for a remote server's round trip. JSON answers only (bench servers use json: true).

import http from "node:http";
import { listenLocal } from "../test/mcp/_servers.ts";

/** One request through the proxy: its JSON-RPC method, when it arrived and when it was answered. */
export interface ProxiedRequest {
  rpc: string;
  arrived: number;
  answered: number;
}

/**
 * Start a proxy to `target` (an http://127.0.0.1 URL) that waits `delayMs` per request;
 * `onRequest` sees each request once answered (times from `performance.now()`).
 */
export async function delayed(
  target: string,
  delayMs: number,
  onRequest?: (request: ProxiedRequest) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer(async (req, res) => {
    const arrived = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await new Promise((r) => setTimeout(r, delayMs));
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) =>
        !["host", "content-length", "connection"].includes(k)
      ),
    ) as Record<string, string>;
    const answer = await fetch(new URL(req.url ?? "/", upstream), {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      if (key !== "content-length" && key !== "transfer-encoding") out[key] = value;
    });
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
    if (onRequest) {
      let rpc = req.method ?? "";
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        rpc = (Array.isArray(body) ? body[0] : body)?.method ?? "(response)";
      } catch { /* not JSON: the HTTP method names it */ }
      onRequest({ rpc, arrived, answered: performance.now() });
    }
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}${upstream.pathname}`, close: listening.close };
}
