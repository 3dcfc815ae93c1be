// Private: what both HTTP transports share — headers, the fetch wrapper with the
// redirect policy, HTTP status → typed error, and secret redaction.

import { hasNodeBuiltins } from "../../_node.ts";
import {
  HttpError,
  type McpError,
  NetworkError,
  PolicyError,
  SessionExpiredError,
} from "../protocol/errors.ts";
import { checkConnectTarget, type PreparedServer, redact } from "../policy/prepare.ts";
import { redactValue, sanitizeCause } from "../policy/_redact_message.ts";
import { raceSignal } from "../../_abort.ts";

/** Redirect hops followed before giving up. */
export const MAX_REDIRECTS = 5;

/** What a transport's helpers need to know. */
export interface HttpContext {
  server: PreparedServer;
  /** The server name used in messages. */
  name: string;
  fetch: typeof fetch;
  /** Writes one already-redacted line. */
  log(line: string): void;
}

/** A URL for messages: origin and path, without the query (which may carry a secret). */
export function where(url: URL | string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** Remove every configured secret from `text` (cut short at its end when `truncated`). */
export function scrub(ctx: HttpContext, text: string, truncated = false): string {
  return redact(text, ctx.server.secrets, { truncated });
}

/** The headers of every request: custom headers, then `Authorization`, then `extra`. */
export function buildHeaders(ctx: HttpContext, extra: Record<string, string | undefined>): Headers {
  const headers = new Headers(ctx.server.headers);
  if (ctx.server.authorization) headers.set("Authorization", ctx.server.authorization);
  for (const [name, value] of Object.entries(extra)) {
    if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function describe(error: unknown): string {
  let current: unknown = error;
  const parts: string[] = [];
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    // A system or undici code (`ECONNREFUSED`, `UND_ERR_SOCKET`) says it best; the library's own
    // codes are lower-case (`network`) and say less than their error's message.
    parts.push(typeof code === "string" && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : current.message);
    current = current.cause;
  }
  return parts.filter(Boolean).join(": ") || "network error";
}

/** Whether this runtime lets us read redirect responses (Deno, Node); browsers hand back opaque ones. */
const readableRedirects = hasNodeBuiltins();

/**
 * `fetch` with the redirect policy: follow only same-origin redirects that keep
 * the method (at most {@linkcode MAX_REDIRECTS} hops, each re-checked against
 * the URL policy); refuse the rest with `PolicyError`. In browsers, redirects
 * are errors. A failed fetch becomes `NetworkError` unless `signal` aborted, in
 * which case its reason is thrown.
 */
export async function send(
  ctx: HttpContext,
  url: URL,
  init: { method: string; headers: Headers; body?: string },
  signal: AbortSignal,
): Promise<Response> {
  const { name } = ctx;
  let target = url;
  for (let hop = 0;; hop++) {
    let response: Response;
    try {
      response = await ctx.fetch(target, {
        ...init,
        signal,
        redirect: readableRedirects ? "manual" : "error",
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      // A sign-in that failed (the `auth` option's fetch) keeps its typed error.
      if ((error as Error)?.name === "OAuthError") throw error;
      const cause = sanitizeCause(error, ctx.server.secrets);
      throw new NetworkError(
        `${name}: ${init.method} ${scrub(ctx, where(target))} failed (${
          scrub(ctx, describe(error))
        })`,
        {
          server: name,
          cause,
        },
      );
    }
    if (response.type === "opaqueredirect") {
      throw new PolicyError(
        `${name}: the server redirected and redirects cannot be followed here`,
        {
          server: name,
          field: "url",
        },
      );
    }
    const location = response.headers.get("location");
    if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response;
    response.body?.cancel().catch(() => {});
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      throw new HttpError(
        response.status,
        scrub(ctx, response.statusText),
        "invalid Location header",
        {
          server: name,
        },
      );
    }
    if (next.origin !== url.origin) {
      throw new PolicyError(
        `${name}: refused a redirect from ${url.origin} to another origin (${
          scrub(ctx, next.origin)
        })`,
        {
          server: name,
          field: "url",
        },
      );
    }
    if (init.method === "POST" && response.status !== 307 && response.status !== 308) {
      throw new PolicyError(
        `${name}: refused a ${response.status} redirect that would turn POST into GET`,
        {
          server: name,
          field: "url",
        },
      );
    }
    if (hop >= MAX_REDIRECTS) {
      throw new PolicyError(`${name}: too many redirects (more than ${MAX_REDIRECTS})`, {
        server: name,
        field: "url",
      });
    }
    await checkConnectTarget(next, ctx.server.urlPolicy, { server: name });
    ctx.log(`${name}: following a ${response.status} redirect to ${next.pathname}`);
    target = next;
  }
}

const SESSION_GONE = /session/i;

/**
 * The typed error for a non-success status. A 404 to a request that carried a
 * session id, or a 400 whose body talks about the session, is
 * `SessionExpiredError`; everything else is `HttpError` with at most 1 KiB of
 * redacted body (and a redacted status text and JSON-RPC error). Reads at most 4 KiB of the body.
 */
export async function statusError(
  ctx: HttpContext,
  response: Response,
  sentSession: boolean,
  signal: AbortSignal,
  /** The request's method and URL, named in the message (`POST http://h/mcp answered HTTP 404`). */
  request?: { method: string; url: URL },
): Promise<McpError> {
  const { name } = ctx;
  let body = "";
  let rpc: ReturnType<typeof rpcErrorOf>;
  try {
    const head = await readPrefix(response, 4096, signal);
    const parsed = head.truncated ? undefined : parseJson(head.text);
    const clean = parsed === undefined ? undefined : redactValue(parsed, ctx.server.secrets);
    // A JSON body is shown re-serialised after redaction, so even a doubly encoded secret goes.
    body = clean === undefined
      ? scrub(ctx, head.text, head.truncated).replace(/\s+/g, " ").trim()
      : JSON.stringify(clean);
    rpc = rpcErrorOf(clean);
  } catch (error) {
    if (signal.aborted) throw error;
  }
  const httpError = new HttpError(response.status, scrub(ctx, response.statusText), body, {
    server: name,
    rpc,
    ...(request === undefined
      ? {}
      : { request: `${request.method} ${scrub(ctx, where(request.url))}` }),
  });
  const unknownMethod = body.includes("-32601");
  if (
    sentSession && !unknownMethod &&
    (response.status === 404 || (response.status === 400 && SESSION_GONE.test(body)))
  ) {
    return new SessionExpiredError(
      `${name}: the server no longer knows this session (HTTP ${response.status})`,
      {
        server: name,
        cause: httpError,
      },
    );
  }
  return httpError;
}

/** `text` as JSON, or `undefined`. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The JSON-RPC error object a (redacted) JSON body holds, if it is one. */
function rpcErrorOf(body: unknown): { code: number; message: string; data?: unknown } | undefined {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (typeof error !== "object" || error === null || typeof error.code !== "number") {
    return undefined;
  }
  const message = typeof error.message === "string" ? error.message : "";
  return { ...error, code: error.code, message };
}

async function readPrefix(
  response: Response,
  max: number,
  signal: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  if (response.body === null) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  let done = false;
  try {
    while (total < max && !done) {
      const chunk = await raceSignal(reader.read(), signal);
      done = chunk.done;
      if (chunk.done) break;
      total += chunk.value.byteLength;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return { text: text.slice(0, max), truncated: !done || text.length > max };
}
