// A scriptable fault-injecting HTTP server for transport tests (node:http on 127.0.0.1:0;
// Node and Deno). It does what real servers won't, one scripted answer per request.
//
//   const server = await startFaultServer();
//   server.script(initialize({ sessionId: "s1" }), sse([{ id: "e1", data: "" }]), status(503));
//   … requests use server.url (…/mcp); each takes the next handler, then `server.fallback`
//   answers (default `ok()`: a `{}` result for requests, 202 for notifications/responses).
//   With `server.lifecycle = true` it answers, like a 2025 server, the 2026-07-28 probe
//   (`server/discover`) with the SDK's 400 and `notifications/initialized` with 202 outside the
//   script, so connect() tests script only what they are about.
//   server.received → every request: method, path, lowercased headers (authorization,
//   mcp-session-id, mcp-protocol-version, last-event-id, …), body, parsed rpc, and
//   `closedEarly` (the client closed the connection before the answer ended), `at` (arrival time).
//   await server.close() → destroys every socket (hung answers included) and stops.
//
// Handlers (factories below): ok, initialize, json, text, html, status, sse, hangHeaders,
// drip, huge, destroyMidBody, redirect, legacy (a whole 2024-11-05 HTTP+SSE server).
// `rpcResult(rpc, result)` builds a JSON-RPC response for the request `rpc`.

import http from "node:http";
import { listenLocal } from "./_servers.ts";

/** One request the server received. */
export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  // deno-lint-ignore no-explicit-any
  rpc: any;
  closedEarly: boolean;
  /** When the server began to receive it (`performance.now()`, server side). */
  at: number;
}

/** What a handler gets. */
export interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  received: Received;
  // deno-lint-ignore no-explicit-any
  rpc: any;
  server: FaultServer;
}

/** Answers one request. */
export type Handler = (exchange: Exchange) => void | Promise<void>;

/** A running fault server. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  origin: string;
  received: Received[];
  /** Queue handlers for the next requests, in order. */
  script(...handlers: Handler[]): void;
  /** Answers when the script is empty. */
  fallback: Handler;
  /** Answer `server/discover` (400) and `notifications/initialized` (202) outside the script. */
  lifecycle: boolean;
  close(): Promise<void>;
}

/** Builds a payload from the request's parsed JSON-RPC message. */
// deno-lint-ignore no-explicit-any
export type FromRpc = (rpc: any) => unknown;

/** A JSON payload, or a function of the request's rpc that returns one. */
export type Payload = FromRpc | string | number | boolean | null | object;

/** One SSE event; `data` objects are JSON-encoded, functions get the request's rpc. */
export interface SseEvent {
  id?: string;
  event?: string;
  retry?: number;
  data?: Payload;
  /** Raw text written as is (comments, broken framing). */
  raw?: string;
}

/** A JSON-RPC result for the request `rpc`. */
// deno-lint-ignore no-explicit-any
export function rpcResult(rpc: any, result: unknown = {}, id: unknown = rpc?.id): object {
  return { jsonrpc: "2.0", id, result };
}

/** The request body as text; what arrived so far when the client drops the connection. */
export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", () => resolve(text));
  });
}

/** Start a fault server (see the top of this file). */
export async function startFaultServer(): Promise<FaultServer> {
  const queue: Handler[] = [];
  const received: Received[] = [];
  const server: FaultServer = {
    url: "",
    origin: "",
    received,
    script: (...handlers) => void queue.push(...handlers),
    fallback: ok(),
    lifecycle: false,
    close: () => Promise.resolve(),
  };
  const http_ = http.createServer(async (req, res) => {
    const at = performance.now();
    const body = await readBody(req);
    let rpc: unknown;
    try {
      rpc = body ? JSON.parse(body) : undefined;
    } catch {
      rpc = undefined;
    }
    const record: Received = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v ?? ""]),
      ),
      body,
      rpc,
      closedEarly: false,
      at,
    };
    received.push(record);
    res.on("close", () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    const method = (rpc as { method?: unknown } | undefined)?.method;
    if (server.lifecycle && method === "server/discover") {
      return void status(
        400,
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: "Bad Request: Unsupported protocol version" },
        }),
        { "content-type": "application/json" },
      )({ req, res, received: record, rpc, server });
    }
    if (server.lifecycle && method === "notifications/initialized") {
      return void res.writeHead(202).end();
    }
    const handler = queue.shift() ?? server.fallback;
    try {
      await handler({ req, res, received: record, rpc, server });
    } catch {
      res.destroy();
    }
  });
  const listening = await listenLocal(http_);
  server.origin = `http://127.0.0.1:${listening.port}`;
  server.url = `${server.origin}/mcp`;
  server.close = listening.close;
  return server;
}

/** A `{}` (or given) result for requests; 202 for notifications and responses. */
export function ok(result: unknown = {}, headers: Record<string, string> = {}): Handler {
  return ({ rpc, res }) => {
    if (rpc?.id === undefined || rpc?.method === undefined) {
      res.writeHead(202, headers).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(rpcResult(rpc, result)));
  };
}

/** An initialize result (echoing the asked version), with `Mcp-Session-Id` when given. */
export function initialize(options: { sessionId?: string } = {}): Handler {
  return ({ rpc, res }) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.sessionId !== undefined) headers["mcp-session-id"] = options.sessionId;
    res.writeHead(200, headers);
    res.end(JSON.stringify(rpcResult(rpc, {
      protocolVersion: rpc?.params?.protocolVersion ?? "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "fault", version: "1.0.0" },
    })));
  };
}

/** Any JSON body (a function gets the request's rpc) with a status. */
export function json(body: Payload, status = 200, headers: Record<string, string> = {}): Handler {
  return ({ rpc, res }) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(typeof body === "function" ? (body as FromRpc)(rpc) : body));
  };
}

/** A text body with a status and content type. */
export function text(status: number, body: string, headers: Record<string, string> = {}): Handler {
  return ({ res }) => {
    res.writeHead(status, { "content-type": "text/plain", ...headers });
    res.end(body);
  };
}

/** An HTML error page of about `bytes` bytes (`extra` is embedded at the start). */
export function html(status: number, bytes: number, extra = ""): Handler {
  const page = `<html><body><h1>Error ${status}</h1>${extra}<p>${
    "x".repeat(Math.max(0, bytes - 60))
  }</p></body></html>`;
  return text(status, page, { "content-type": "text/html" });
}

/** A bare status with an optional body and headers. */
export function status(code: number, body = "", headers: Record<string, string> = {}): Handler {
  return text(code, body, headers);
}

function formatEvent(event: SseEvent, rpc: unknown): string {
  if (event.raw !== undefined) return event.raw;
  let out = "";
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  if (event.event !== undefined) out += `event: ${event.event}\n`;
  if (event.retry !== undefined) out += `retry: ${event.retry}\n`;
  const data = typeof event.data === "function" ? (event.data as FromRpc)(rpc) : event.data;
  const encoded = data === undefined ? "" : typeof data === "string" ? data : JSON.stringify(data);
  for (const line of encoded.split("\n")) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * An SSE answer: the events, then `end` — `"close"` ends the stream (default),
 * `"hang"` keeps it open silently, `"destroy"` kills the socket.
 */
export function sse(
  events: SseEvent[],
  options: {
    end?: "close" | "hang" | "destroy";
    status?: number;
    headers?: Record<string, string>;
  } = {},
): Handler {
  return ({ rpc, res, req }) => {
    res.writeHead(options.status ?? 200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      ...options.headers,
    });
    res.flushHeaders();
    for (const event of events) res.write(formatEvent(event, rpc));
    if (options.end === "hang") return;
    if (options.end === "destroy") {
      setTimeout(() => req.socket.destroy(), 20);
      return;
    }
    res.end();
  };
}

/** Never send headers (the connection stays open until the client or `close()` ends it). */
export function hangHeaders(): Handler {
  return () => {};
}

/** JSON headers, then one byte of a never-finished body every `intervalMs`. */
export function drip(intervalMs = 50): Handler {
  return ({ res }) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.flushHeaders();
    const timer = setInterval(() => res.write(" "), intervalMs);
    res.on("close", () => clearInterval(timer));
  };
}

/**
 * A huge tools/list answer (`bytes` of JSON, or SSE with `sse: true`) streamed
 * in chunks with backpressure; it stops as soon as the client goes away.
 */
export function huge(bytes: number, options: { sse?: boolean } = {}): Handler {
  return async ({ rpc, res }) => {
    res.writeHead(200, { "content-type": options.sse ? "text/event-stream" : "application/json" });
    const tool = JSON.stringify({
      name: "t".repeat(40),
      description: "d".repeat(900),
      inputSchema: {},
    });
    const chunk = Array.from({ length: 64 }, () => tool).join(",");
    let sent = 0;
    let gone = false;
    let wake: (() => void) | undefined;
    res.on("close", () => {
      gone = true;
      wake?.();
    });
    res.on("drain", () => wake?.());
    const write = (data: string) =>
      res.write(data) ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve));
    await write(
      `${options.sse ? "data: " : ""}{"jsonrpc":"2.0","id":${
        JSON.stringify(rpc?.id)
      },"result":{"tools":[`,
    );
    while (sent < bytes && !gone) {
      await write(`${sent === 0 ? "" : ","}${chunk}`);
      sent += chunk.length;
    }
    if (!gone) res.end(`]}}${options.sse ? "\n\n" : ""}`);
  };
}

/** Promise a JSON body (Content-Length), send half of it, then destroy the socket. */
export function destroyMidBody(): Handler {
  return ({ rpc, res, req }) => {
    const body = JSON.stringify(rpcResult(rpc, { tools: [] }));
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": String(body.length),
    });
    res.write(body.slice(0, body.length >> 1));
    setTimeout(() => req.socket.destroy(), 20);
  };
}

/** A redirect to `location` (absolute, or relative to this server). */
export function redirect(code: number, location: string): Handler {
  return ({ res }) => {
    res.writeHead(code, { location });
    res.end();
  };
}

/**
 * How the legacy server answers one posted request: events to push on the
 * stream, `"end"` (end the stream), `"none"`, or `undefined` for the default.
 */
// deno-lint-ignore no-explicit-any
export type LegacyReply = (rpc: any) => SseEvent[] | "end" | "none" | undefined;

/**
 * A whole legacy HTTP+SSE server: GET (any path but the endpoint) opens the
 * stream and sends `event: endpoint` with `endpoint` (default
 * `/messages?sessionId=abc`); POSTs to it get 202 and their answer on the
 * stream, as `reply` decides (default: a `{}` result; `initialize` gets a real one).
 */
export function legacy(
  options: { endpoint?: string; reply?: LegacyReply; postStatus?: number } = {},
): Handler & { streams: http.ServerResponse[] } {
  const endpoint = options.endpoint ?? "/messages?sessionId=abc";
  const streams: http.ServerResponse[] = [];
  const handler = ({ req, res, rpc }: Exchange) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(`event: endpoint\ndata: ${endpoint}\n\n`);
      streams.push(res);
      return;
    }
    const code = options.postStatus ?? 202;
    res.writeHead(code).end(code === 202 ? "Accepted" : "Session not found");
    if (code >= 300 || rpc?.id === undefined || rpc?.method === undefined) return;
    const stream = streams[streams.length - 1];
    if (stream === undefined) return;
    // deno-lint-ignore no-explicit-any
    const fallback = (message: any): SseEvent[] => [{
      event: "message",
      data: rpcResult(
        message,
        message.method === "initialize"
          ? {
            protocolVersion: "2024-11-05",
            capabilities: {},
            serverInfo: { name: "legacy", version: "1" },
          }
          : {},
      ),
    }];
    const plan = options.reply?.(rpc) ?? fallback(rpc);
    if (plan === "end") return void stream.end();
    if (plan === "none") return;
    for (const event of plan) stream.write(formatEvent(event, rpc));
  };
  return Object.assign(handler, { streams });
}

export { waitUntil } from "../_wait.ts";
