// Private: GET from an MCP registry through the transport room's policed GET (timeout, retries,
// the URL policy on every hop, the size cap and the stall timer), its failures turned into
// `DirectoryError`s that say what was being read.
//
// Registries are read without `Accept-Encoding: identity` (install asks for it): an API that
// answers gzip is normal, some CDNs compress whatever is asked, and refusing it would break
// reading. What fetch's decoding costs stays bounded: the cap counts decoded bytes and reading
// stops there, so a small gzip bomb costs no more memory than a plain answer of the cap would;
// only the sender's side is cheaper.

import { type GetFailure, policedGet, showUrl } from "../transport/policed_get.ts";
import { DirectoryError } from "./errors.ts";
import type { DirectoryHttpOptions } from "./types.ts";

export { showUrl };

/** Default cap of one answer: 8 MiB (a page of 100 full entries is well under 1 MiB). */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/** GET `url` and return its body, at most `maxBytes`, or throw a {@linkcode DirectoryError}. */
export function getBytes(
  url: URL,
  options: DirectoryHttpOptions & { signal?: AbortSignal },
  what: string,
  maxBytes: number = options.maxBytes ?? DEFAULT_MAX_BYTES,
): Promise<Uint8Array> {
  return policedGet(url, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    urlPolicy: options.urlPolicy,
    signal: options.signal,
    maxBytes,
    accept: "application/json, application/yaml, */*",
    fail: (failure) => directoryError(failure, what),
  });
}

/** GET `url` as JSON (within the cap), or throw a {@linkcode DirectoryError}. */
export async function getJson(
  url: URL,
  options: DirectoryHttpOptions & { signal?: AbortSignal },
  what: string,
): Promise<unknown> {
  const text = new TextDecoder().decode(await getBytes(url, options, what));
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DirectoryError(
      "invalid",
      `Cannot read ${what}: ${showUrl(url)} did not answer JSON (${(error as Error).message})`,
      { url: showUrl(url), cause: error },
    );
  }
}

function directoryError(failure: GetFailure, what: string): DirectoryError {
  const { kind, url, status, cause } = failure;
  switch (kind) {
    case "policy":
      return new DirectoryError(
        "policy",
        `Refusing ${url}${failure.field === "redirect" ? " (a redirect)" : ""}: ${
          cause instanceof Error ? cause.message : String(cause)
        }`,
        { url, cause },
      );
    case "too-large":
      return new DirectoryError(
        "too-large",
        `Cannot read ${what}: ${failure.message} (reading stopped there)`,
        { url },
      );
    case "redirect":
      if (failure.redirect === "too-many") {
        return new DirectoryError("http", `Cannot read ${what} from ${url}: too many redirects`, {
          url,
        });
      }
      return new DirectoryError("http", `Cannot read ${what}: ${failure.message}`, { url });
    default: {
      // A timeout did not reach the registry: "network". An encoding refusal (never raised here,
      // since no identity is asked) would be an answer refused: "http".
      const code = kind === "network" || kind === "timeout"
        ? "network"
        : kind === "encoding"
        ? "http"
        : kind;
      return new DirectoryError(code, `Cannot read ${what}: ${failure.message}`, {
        url,
        status,
        cause,
      });
    }
  }
}
