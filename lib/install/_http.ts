// Private: GET for community install through the MCP transport room's policed GET (timeout,
// retries, the URL policy on every hop, the size cap and the stall timer), its failures turned
// into `InstallError`s that say what was being downloaded, for which skill.
//
// Downloads ask for `Accept-Encoding: identity` and refuse an answer that is content-encoded all
// the same before reading it: fetch decodes gzip, deflate and br on its own, so a few kilobytes
// could expand to gigabytes (a "gzip bomb"); even cut at the cap, every decoded byte costs two
// more in buffers the garbage collector has not freed yet (measured: 9–10 MB over the control
// for the 4 MiB cap, against 2 × cap). Refused unread, such an answer costs nothing.
//
// A 3xx without `Location` is read as the answer here (the policed GET refuses it by default):
// it comes from a URL the policy allowed, and registries relied on it (test/install/http_mutation).

import type { UrlPolicyOptions } from "../mcp/policy/url.ts";
import { type GetFailure, policedGet, showUrl } from "../mcp/transport/policed_get.ts";
import { InstallError } from "./errors.ts";

export { showUrl };

/** How downloads are made. */
export interface HttpOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Per-request timeout in milliseconds, each attempt. Default 15 000. */
  timeoutMs?: number;
  /** Retries after a network error or a 408/429/5xx answer. Default 2. */
  retries?: number;
  /** Which URLs may be contacted: the MCP servers' policy (default: https, http only to loopback). */
  urlPolicy?: UrlPolicyOptions;
  /** Cancels every request. */
  signal?: AbortSignal;
}

/** The HTTP part of installer options. */
export function httpOptions(options: Partial<HttpOptions>): HttpOptions {
  const { fetch, timeoutMs, retries, urlPolicy, signal } = options;
  return { fetch, timeoutMs, retries, urlPolicy, signal };
}

/** GET `url` and return at most `maxBytes` of its body, or throw an {@linkcode InstallError}. */
export function getBytes(
  url: URL,
  maxBytes: number,
  options: HttpOptions,
  what: string,
  skill?: string,
): Promise<Uint8Array> {
  return policedGet(url, {
    ...options,
    maxBytes,
    accept: "application/json, text/markdown, */*",
    identity: true,
    redirectWithoutLocation: "read",
    fail: (failure) => installError(failure, what, skill),
  });
}

function installError(failure: GetFailure, what: string, skill: string | undefined): InstallError {
  const { kind, url, status, cause } = failure;
  switch (kind) {
    case "policy": {
      // The policy could not check the host (it does not resolve in strict mode): unreachable.
      const code = cause instanceof Error && cause.name === "PolicyError" ? "policy" : "network";
      return new InstallError(code, failure.message, { url, cause });
    }
    case "too-large": {
      const size = failure.declared === undefined
        ? `more than ${failure.limit} bytes`
        : `${failure.declared} bytes`;
      return new InstallError(
        "too-large",
        `Cannot download ${what}: ${url} is ${size}; the limit is ${failure.limit} bytes`,
        { url, skill },
      );
    }
    case "encoding":
      return new InstallError(
        "http",
        `Cannot download ${what}: ${failure.message} (a registry must serve its files ` +
          `uncompressed to a client that asks so)`,
        { url, skill },
      );
    case "redirect":
      if (failure.redirect === "too-many") {
        return new InstallError("http", `Cannot download ${what} from ${url}: too many redirects`, {
          url,
          skill,
        });
      }
      return new InstallError("http", `Cannot download ${what}: ${failure.message}`, {
        url,
        skill,
      });
    default: {
      // A timeout did not reach the registry: "network", as InstallErrorCode documents.
      const code = kind === "network" || kind === "timeout" ? "network" : kind;
      return new InstallError(code, `Cannot download ${what}: ${failure.message}`, {
        url,
        skill,
        status,
        cause,
      });
    }
  }
}
