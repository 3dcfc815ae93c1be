/**
 * The URL policy: which server URLs may be contacted, checked synchronously
 * before any I/O (and again by transports on every redirect hop).
 *
 * @module
 */

import { classifyAddress } from "./_address.ts";
import { policyError } from "./_error.ts";

/** One address a host name resolves to. */
export interface ResolvedAddress {
  /** The address, e.g. `93.184.215.14` or `2606:2800::1`. */
  address: string;
  /** 4 or 6, when known. */
  family?: number;
}

/** Resolves a host name to every address it has (see {@linkcode UrlPolicyOptions.lookup}). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** Which URLs may be contacted. */
export interface UrlPolicyOptions {
  /**
   * `default`: http(s) only; plain http only to loopback hosts. `strict`: https
   * only, and the host (after DNS resolution on Deno/Node) must be a public
   * address: no private, reserved, loopback, link-local or IPv4-mapped IPv6.
   */
  mode?: "default" | "strict";
  /** `default` mode only: also allow plain http to non-loopback hosts. */
  allowInsecureHttp?: boolean;
  /**
   * `strict` mode: the resolver of the connect-time check (`checkConnectTarget`), used by every
   * HTTP transport, redirect hop and download before it connects. Default on Deno/Node:
   * `dns.lookup(host, { all: true })`; in a browser none (host names are not checked). Give
   * one to resolve through your own DNS (or a test double).
   */
  lookup?: HostLookup;
}

/**
 * Whether `hostname` (as `URL.hostname` gives it) is a loopback host:
 * `localhost`, `*.localhost` (RFC 6761), 127.0.0.0/8, `[::1]`, or an
 * IPv4-mapped loopback address.
 *
 * @example
 * ```ts
 * import { isLoopbackHost } from "@skillmux/core/policy";
 * console.log(isLoopbackHost(new URL("http://127.1:3000").hostname)); // true
 * console.log(isLoopbackHost("example.com")); // false
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return classifyAddress(host)?.loopback ?? false;
}

/** The origin of `url` for messages: never the user info, path or query (they may hold secrets). */
function describe(url: URL): string {
  return JSON.stringify(`${url.protocol}//${url.host}`);
}

/**
 * Check `url` against the policy and return it parsed. Throws `PolicyError`
 * (with `field`) for:
 *
 * - a value that is not an absolute URL;
 * - any scheme but `http:` and `https:` (`file:`, `javascript:`, `data:`, `ftp:` …);
 * - user info (`https://user:pass@host`): use the apiKey or headers fields;
 * - `default` mode: plain http to a non-loopback host, unless `allowInsecureHttp`;
 * - `strict` mode: plain http, a `localhost` name, or an IP literal that is not
 *   public (private, loopback, link-local, CGNAT, multicast, reserved,
 *   documentation, benchmarking, IPv4-mapped, NAT64, 6to4, Teredo …).
 *
 * The WHATWG URL parser already normalises decimal, hex, octal and short IPv4
 * forms (`http://2130706433/` is `127.0.0.1`), so those are caught too. Host
 * names are resolved only at connect time: see `checkConnectTarget`.
 *
 * @param url The URL to check.
 * @param policy The policy.
 * @param field The configuration field, for errors. Default `url`.
 * @param server The server name, for errors.
 *
 * @example
 * ```ts
 * import { checkUrl } from "@skillmux/core/policy";
 * console.log(checkUrl("https://example.com/mcp", { mode: "strict" }).href); // "https://example.com/mcp"
 * console.log(checkUrl("http://localhost:3001/mcp", {}).host); // "localhost:3001"
 * try {
 *   checkUrl("https://10.0.0.1/mcp", { mode: "strict" });
 * } catch (error) {
 *   console.log((error as Error).message); // 'url "https://10.0.0.1" is not a public address: private (10.0.0.0/8); ...'
 * }
 * ```
 */
export function checkUrl(
  url: string | URL,
  policy: UrlPolicyOptions = {},
  field = "url",
  server?: string,
): URL {
  const mode = policy.mode ?? "default";
  if (mode !== "default" && mode !== "strict") {
    throw policyError(
      `unknown URL policy mode: use "default" or "strict"`,
      "urlPolicy.mode",
      server,
    );
  }
  let parsed: URL;
  try {
    // Never pass the parser's message on: some runtimes quote the input, user info included.
    parsed = new URL(typeof url === "string" ? url : url.href);
  } catch {
    throw policyError(
      `${field} is not a valid absolute URL (expected https://host/path)`,
      field,
      server,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw policyError(
      `${field} uses the scheme ${
        JSON.stringify(parsed.protocol)
      }: only http: and https: are allowed`,
      field,
      server,
    );
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw policyError(
      `${field} ${describe(parsed)} contains credentials (user:password@): ` +
        "remove them and use the apiKey or headers fields",
      field,
      server,
    );
  }
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  if (mode === "strict") {
    if (parsed.protocol !== "https:") {
      throw policyError(
        `${field} ${describe(parsed)} uses plain http: strict mode allows https only`,
        field,
        server,
      );
    }
    if (host === "localhost" || host.endsWith(".localhost")) {
      throw policyError(
        `${field} ${describe(parsed)} is a loopback name: strict mode allows public addresses only`,
        field,
        server,
      );
    }
    const address = classifyAddress(host);
    if (address?.blocked) {
      throw policyError(
        `${field} ${
          describe(parsed)
        } is not a public address: ${address.reason}; strict mode allows public addresses only`,
        field,
        server,
      );
    }
  } else if (parsed.protocol === "http:" && !policy.allowInsecureHttp && !isLoopbackHost(host)) {
    throw policyError(
      `${field} ${describe(parsed)} uses plain http to a host that is not loopback: ` +
        "use https (only the library option urlPolicy.allowInsecureHttp allows it; the " +
        "skillmux CLI and the playground have no such setting)",
      field,
      server,
    );
  }
  return parsed;
}
