// Private: GET through ky with a timeout, retries, a streamed size cap, and the URL policy
// checked on the first URL and on every redirect hop.
//
// Downloads ask for `Accept-Encoding: identity` and refuse an answer that is content-encoded all
// the same before reading it: fetch decodes gzip, deflate and br on its own, so a few kilobytes
// could expand to gigabytes (a "gzip bomb"); even cut at the cap, every decoded byte costs two
// more in buffers the garbage collector has not freed yet (measured: 9–10 MB over the control
// for the 4 MiB cap, against 2 × cap). Refused unread, such an answer costs nothing.

import ky, { HTTPError, TimeoutError } from "ky";
import { checkConnectTarget } from "../mcp/policy/connect_target.ts";
import { checkUrl, type UrlPolicyOptions } from "../mcp/policy/url.ts";
import { InstallError } from "./errors.ts";

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

const MAX_REDIRECTS = 5;

/** The HTTP part of installer options. */
export function httpOptions(options: Partial<HttpOptions>): HttpOptions {
  const { fetch, timeoutMs, retries, urlPolicy, signal } = options;
  return { fetch, timeoutMs, retries, urlPolicy, signal };
}

/** Where a URL points, for messages: origin and path, never credentials or the query. */
export function showUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** Check `url` against the policy, turning its `PolicyError` into an {@linkcode InstallError}. */
export async function checkAllowed(url: URL, options: HttpOptions, field: string): Promise<void> {
  try {
    checkUrl(url, options.urlPolicy, field);
    await checkConnectTarget(url, options.urlPolicy);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as Error).name === "PolicyError" ? "policy" : "network";
    throw new InstallError(code, `Refusing ${showUrl(url)}: ${message}`, {
      url: showUrl(url),
      cause: error,
    });
  }
}

/** GET `url` and return at most `maxBytes` of its body, or throw an {@linkcode InstallError}. */
export async function getBytes(
  url: URL,
  maxBytes: number,
  options: HttpOptions,
  what: string,
  skill?: string,
): Promise<Uint8Array> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    await checkAllowed(current, options, hop === 0 ? "url" : "redirect");
    const shown = showUrl(current);
    let response: Response;
    try {
      response = await ky.get(current, {
        fetch: options.fetch,
        timeout: options.timeoutMs ?? 15_000,
        retry: { limit: options.retries ?? 2, methods: ["get"], backoffLimit: 2_000 },
        redirect: "manual",
        throwHttpErrors: (status) => status >= 400,
        signal: options.signal,
        headers: { accept: "application/json, text/markdown, */*", "accept-encoding": "identity" },
      });
    } catch (error) {
      throw failure(error, what, shown, skill, options.signal);
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      current = new URL(location, current);
      continue;
    }
    const coding = response.headers.get("content-encoding")?.trim();
    if (coding && coding.toLowerCase() !== "identity") {
      await response.body?.cancel();
      throw new InstallError(
        "http",
        `Cannot download ${what}: ${shown} answered with Content-Encoding "${coding}" although ` +
          `only identity was accepted; refusing it unread (a registry must serve its files ` +
          `uncompressed to a client that asks so)`,
        { url: shown, skill },
      );
    }
    return await readCapped(response, maxBytes, what, shown, skill);
  }
  throw new InstallError(
    "http",
    `Cannot download ${what} from ${showUrl(url)}: too many redirects`,
    {
      url: showUrl(url),
      skill,
    },
  );
}

function failure(
  error: unknown,
  what: string,
  url: string,
  skill: string | undefined,
  signal: AbortSignal | undefined,
): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof HTTPError) {
    const status = error.response.status;
    const code = status === 404 || status === 410 ? "not-found" : "http";
    return new InstallError(code, `Cannot download ${what}: ${url} answered HTTP ${status}`, {
      url,
      skill,
      status,
      cause: error,
    });
  }
  const reason = error instanceof TimeoutError
    ? "timed out"
    : `failed (${error instanceof Error ? error.message : String(error)})`;
  return new InstallError("network", `Cannot download ${what}: the request to ${url} ${reason}`, {
    url,
    skill,
    cause: error,
  });
}

async function readCapped(
  response: Response,
  maxBytes: number,
  what: string,
  url: string,
  skill: string | undefined,
): Promise<Uint8Array> {
  const tooLarge = (size: string) =>
    new InstallError(
      "too-large",
      `Cannot download ${what}: ${url} is ${size}; the limit is ${maxBytes} bytes`,
      { url, skill },
    );
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(`${declared} bytes`);
  }
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(`more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
