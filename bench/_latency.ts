// Private: a loopback proxy that adds a fixed delay before forwarding each HTTP request,
// standing in for a remote server's round trip. JSON answers only (bench servers use json: true).

import http from "node:http";
import { listenLocal } from "../test/mcp/_servers.ts";

/** Start a proxy to `target` (an http://127.0.0.1 URL) that waits `delayMs` per request. */
export async function delayed(
  target: string,
  delayMs: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer(async (req, res) => {
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
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}${upstream.pathname}`, close: listening.close };
}
