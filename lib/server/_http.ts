// Private: the HTTP edge of the skills server: origin and host checks, CORS, bearer token,
// request bodies and JSON-RPC error answers.

import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i;
const LOOPBACK_HOST = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i;
const ALLOW_HEADERS =
  "Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name";
const EXPOSE_HEADERS = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate";

/** Whether a browser `origin` may call; `undefined` (no `Origin`: not a browser) always may. */
export function originAllowed(
  origin: string | undefined,
  allowed: readonly string[] | "*" | undefined,
): boolean {
  if (origin === undefined) return true;
  if (allowed === "*") return true;
  if (allowed === undefined) return LOOPBACK_ORIGIN.test(origin);
  const wanted = origin.toLowerCase().replace(/\/$/, "");
  return allowed.some((entry) => entry.toLowerCase().replace(/\/$/, "") === wanted);
}

/** Whether the server is bound to a loopback interface (then `Host` must name loopback too). */
export function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost";
}

/** Whether the `Host` header names a loopback interface (a DNS-rebound name does not). */
export function hostAllowed(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOST.test(host);
}

/** CORS headers for an allowed browser origin. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": EXPOSE_HEADERS,
    Vary: "Origin",
  };
}

/**
 * Answer a CORS preflight. `Mcp-Param-*` names are per tool and cannot be listed up front, so
 * those the browser asks for are allowed by name.
 */
export function preflight(
  res: ServerResponse,
  origin: string | undefined,
  requested: string | undefined = "",
): void {
  const params = requested.split(",").map((h) => h.trim())
    .filter((h) => /^mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(h));
  res.writeHead(204, {
    ...corsHeaders(origin),
    "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
    "Access-Control-Allow-Headers": [ALLOW_HEADERS, ...params].join(", "),
    "Access-Control-Max-Age": "600",
  }).end();
}

const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

/** A checker of `Authorization: Bearer <token>` that compares in constant time. */
export function bearerCheck(token: string): (header: string | undefined) => boolean {
  const expected = digest(token);
  return (header) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
    return timingSafeEqual(digest(match?.[1] ?? ""), expected) && match !== null;
  };
}

/** Answer with a JSON-RPC error and no id. */
export function rpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  res.writeHead(status, { ...headers, "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Read a request body of at most `max` bytes; `undefined` when it is larger. */
export function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > max ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** The JSON-RPC method of a parsed body (the first of a batch), for the log. */
export function rpcMethod(body: unknown): string | undefined {
  const first = (Array.isArray(body) ? body[0] : body) as { method?: unknown } | undefined;
  return typeof first?.method === "string" ? first.method : undefined;
}

/**
 * Whether the client asked for JSON only (its `Accept` lacks `text/event-stream`). The SDK insists
 * on both types being accepted, so the header it sees is widened; the transport then answers JSON.
 */
export function acceptsJsonOnly(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? "";
  if (accept.includes("text/event-stream")) return false;
  const both = "application/json, text/event-stream";
  req.headers.accept = both;
  const raw = req.rawHeaders;
  const at = raw.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === "accept");
  if (at >= 0) raw[at + 1] = both;
  else raw.push("Accept", both);
  return true;
}
