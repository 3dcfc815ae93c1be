/**
 * The header policy: custom headers are checked when a server is registered,
 * before any I/O, with the same rules on every runtime (runtimes differ: some
 * throw, some drop, some pass `Cookie` through).
 *
 * @module
 */

import { policyError, quote } from "./_error.ts";
import {
  headerValueProblem,
  MAX_HEADER_VALUE_BYTES,
  MAX_HEADERS_TOTAL_BYTES,
  trimHeaderValue,
} from "./_header_value.ts";

export { MAX_HEADER_VALUE_BYTES, MAX_HEADERS_TOTAL_BYTES };

/** Options of {@linkcode checkHeaders}. */
export interface HeaderPolicyOptions {
  /** The server name, for errors. */
  server?: string;
  /** The configuration field holding the headers, for errors. Default `headers`. */
  field?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

type Why = "auth" | "stack" | "transport" | "cookie" | "forbidden" | "proxy";

const EXACT: Record<string, Why> = {
  authorization: "auth",
  host: "stack",
  "content-length": "stack",
  "transfer-encoding": "stack",
  connection: "stack",
  "keep-alive": "stack",
  upgrade: "stack",
  te: "stack",
  trailer: "stack",
  expect: "stack",
  "content-type": "transport",
  accept: "transport",
  "mcp-session-id": "transport",
  "mcp-protocol-version": "transport",
  "mcp-method": "transport",
  "mcp-name": "transport",
  "last-event-id": "transport",
  cookie: "cookie",
  "set-cookie": "cookie",
  "accept-charset": "forbidden",
  "accept-encoding": "forbidden",
  date: "forbidden",
  dnt: "forbidden",
  origin: "forbidden",
  "permissions-policy": "forbidden",
  referer: "forbidden",
  via: "forbidden",
  "x-http-method": "forbidden",
  "x-http-method-override": "forbidden",
  "x-method-override": "forbidden",
  forwarded: "proxy",
};

const PREFIXES: Array<[string, Why]> = [
  ["x-forwarded-", "proxy"],
  ["proxy-", "forbidden"],
  ["sec-", "forbidden"],
  ["access-control-request-", "forbidden"],
  ["mcp-param-", "transport"],
];

const ADVICE: Record<Why, string> = {
  auth: 'put the token in the apiKey field instead; it is sent as "Authorization: Bearer <apiKey>"',
  stack: "the HTTP stack manages framing and connection headers; remove it",
  transport: "the MCP transport sets it; remove it",
  cookie:
    "browsers drop it silently; send credentials through apiKey or a custom header such as X-Api-Key",
  forbidden:
    "it is a forbidden request header (Fetch standard) that browsers drop or refuse; remove it",
  proxy: "proxies set it and a client must not forge it; remove it",
};

/**
 * Why the header `name` may not be set by configuration, or `undefined` when it
 * may. Case-insensitive; covers the transport-owned headers, `Authorization`,
 * hop-by-hop and framing headers, `X-Forwarded-*`, and the Fetch standard's
 * forbidden request headers (including the `Proxy-*` and `Sec-*` prefixes).
 *
 * @example
 * ```ts
 * import { blockedHeaderReason } from "@skillmux/core/policy";
 * console.log(blockedHeaderReason("X-Api-Key")); // undefined
 * console.log(blockedHeaderReason("mcp-session-id")); // "the MCP transport sets it; remove it"
 * ```
 */
export function blockedHeaderReason(name: string): string | undefined {
  const lower = name.toLowerCase();
  const why = Object.hasOwn(EXACT, lower)
    ? EXACT[lower]
    : PREFIXES.find(([p]) => lower.startsWith(p))?.[1];
  return why === undefined ? undefined : ADVICE[why];
}

/**
 * Check the header name itself: an RFC 9110 token and not on the deny-list.
 * Throws `PolicyError` with `field: "<field>.<name>"`.
 *
 * @example
 * ```ts
 * import { checkHeaderName } from "@skillmux/core/policy";
 * checkHeaderName("X-Api-Key"); // fine
 * try {
 *   checkHeaderName("Host", { server: "docs" });
 * } catch (error) {
 *   console.log((error as Error).message); // 'Server "docs": header "Host" is not allowed: ...'
 * }
 * ```
 */
export function checkHeaderName(name: string, options: HeaderPolicyOptions = {}): void {
  const field = `${options.field ?? "headers"}.${name}`;
  if (!TOKEN.test(name)) {
    throw policyError(
      `header name ${quote(name)} is not a valid HTTP token: ` +
        "use letters, digits and !#$%&'*+-.^_`|~ only (no spaces, colons or control characters)",
      field,
      options.server,
    );
  }
  const reason = blockedHeaderReason(name);
  if (reason !== undefined) {
    throw policyError(`header ${quote(name)} is not allowed: ${reason}`, field, options.server);
  }
}

/**
 * Check a header value and return it with surrounding spaces and tabs trimmed:
 * no CR, LF, NUL or other control characters (tab is allowed), only Latin-1
 * characters, at most {@linkcode MAX_HEADER_VALUE_BYTES}. Messages never
 * include the value.
 *
 * @example
 * ```ts
 * import { checkHeaderValue } from "@skillmux/core/policy";
 * console.log(checkHeaderValue("X-Api-Key", " sk-123 ")); // "sk-123"
 * ```
 */
export function checkHeaderValue(
  name: string,
  value: string,
  options: HeaderPolicyOptions = {},
): string {
  const field = `${options.field ?? "headers"}.${name}`;
  const problem = headerValueProblem(value);
  if (problem !== undefined) {
    throw policyError(`the value of header ${quote(name)} ${problem}`, field, options.server);
  }
  return trimHeaderValue(value);
}

/**
 * Check custom headers (see {@linkcode checkHeaderName} and
 * {@linkcode checkHeaderValue}) and return a copy with trimmed values. Two
 * names that differ only in case are refused, and so are headers that take more
 * than {@linkcode MAX_HEADERS_TOTAL_BYTES} in all. Throws `PolicyError` with
 * `field: "headers.<Name>"` before any I/O; no message contains a value.
 *
 * @example
 * ```ts
 * import { checkHeaders } from "@skillmux/core/policy";
 * console.log(checkHeaders({ "X-Api-Key": "sk-123" })); // { "X-Api-Key": "sk-123" }
 * try {
 *   checkHeaders({ Authorization: "Bearer sk-123" }, { server: "docs" });
 * } catch (error) {
 *   console.log((error as { field?: string }).field); // "headers.Authorization"
 * }
 * ```
 */
export function checkHeaders(
  headers: Record<string, string>,
  options: HeaderPolicyOptions = {},
): Record<string, string> {
  const base = options.field ?? "headers";
  if (headers === null || typeof headers !== "object" || Array.isArray(headers)) {
    throw policyError(
      `${base} must be an object of header names to string values`,
      base,
      options.server,
    );
  }
  const out: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    checkHeaderName(name, options);
    const previous = seen.get(name.toLowerCase());
    if (previous !== undefined) {
      throw policyError(
        `header ${quote(name)} is given twice (also as ${
          quote(previous)
        }); names are case-insensitive: keep one`,
        `${base}.${name}`,
        options.server,
      );
    }
    seen.set(name.toLowerCase(), name);
    out[name] = checkHeaderValue(name, value, options);
  }
  const total = Object.entries(out).reduce((sum, [n, v]) => sum + n.length + v.length + 4, 0);
  if (total > MAX_HEADERS_TOTAL_BYTES) {
    throw policyError(
      `the ${Object.keys(out).length} custom headers take ${total} bytes, more than the ` +
        `${MAX_HEADERS_TOTAL_BYTES} allowed in all (servers refuse large requests with 431): ` +
        "drop some or shorten their values",
      base,
      options.server,
    );
  }
  return out;
}
