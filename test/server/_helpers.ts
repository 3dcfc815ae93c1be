// Helpers for the skills server tests: a skill document, a JSON-RPC POST through fetch and a raw
// HTTP request (node:http, which may set any Host header).
import { request } from "node:http";

/** A valid skill document. */
export const skillDoc = (name: string, description: string, tags: string[] = []): string =>
  `---\nname: ${name}\ndescription: ${description}\ntags: [${
    tags.join(", ")
  }]\n---\n\n## Concepts\n\n- One.\n`;

/** The `initialize` request as JSON. */
export const INITIALIZE: string = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
});

/** POST `body` (default: initialize) to `url` with JSON-only Accept and extra `headers`. */
export function post(
  url: string,
  headers: Record<string, string> = {},
  body: string = INITIALIZE,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body,
  });
}

/** A raw HTTP answer: status, headers and the body as text. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request (unlike fetch, it may set any `Host`), with a 10 s deadline. */
export function send(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const target = new URL(url);
  return new Promise<Answer>((resolve, reject) => {
    const req = request({
      host: target.hostname,
      port: target.port,
      path: options.path ?? target.pathname,
      method: options.method ?? "POST",
      headers: options.headers ?? {},
      timeout: 10_000,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${options.method} ${url}: no answer in 10 s`)));
    req.on("error", reject);
    req.end(options.body);
  });
}
