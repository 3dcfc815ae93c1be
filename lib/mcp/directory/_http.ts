// Private: GET from an MCP registry through ky (timeout, retries on 408/429/5xx), with the URL
// policy checked on the first URL and on every redirect hop, and the body read by the
// transport's capped reader: reading stops at the cap, so a 20 MB answer never sits in memory.

import ky, { HTTPError, TimeoutError } from "ky";
import { ResponseTooLargeError } from "../protocol/errors.ts";
import { checkConnectTarget } from "../policy/connect_target.ts";
import { checkUrl } from "../policy/url.ts";
import { readBytes } from "../transport/_stream.ts";
import { DirectoryError } from "./errors.ts";
import type { DirectoryHttpOptions } from "./types.ts";

const MAX_REDIRECTS = 5;
/** Default cap of one answer: 8 MiB (a page of 100 full entries is well under 1 MiB). */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/** Where a URL points, for messages: origin and path, never credentials or the query. */
export function showUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

async function allowed(url: URL, options: DirectoryHttpOptions, field: string): Promise<void> {
  try {
    checkUrl(url, options.urlPolicy, field);
    await checkConnectTarget(url, options.urlPolicy);
  } catch (error) {
    throw new DirectoryError(
      "policy",
      `Refusing ${showUrl(url)}${field === "redirect" ? " (a redirect)" : ""}: ${
        (error as Error).message
      }`,
      { url: showUrl(url), cause: error },
    );
  }
}

/** GET `url` and return its body, at most `maxBytes`, or throw a {@linkcode DirectoryError}. */
export async function getBytes(
  url: URL,
  options: DirectoryHttpOptions & { signal?: AbortSignal },
  what: string,
  maxBytes: number = options.maxBytes ?? DEFAULT_MAX_BYTES,
): Promise<Uint8Array> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    await allowed(current, options, hop === 0 ? "url" : "redirect");
    const shown = showUrl(current);
    let response: Response;
    try {
      response = await ky.get(current, {
        fetch: options.fetch,
        timeout: timeoutMs,
        retry: { limit: 2, methods: ["get"], backoffLimit: 2_000 },
        redirect: "manual",
        throwHttpErrors: (status) => status >= 400,
        signal: options.signal,
        headers: { accept: "application/json, application/yaml, */*" },
      });
    } catch (error) {
      throw failure(error, what, shown, options.signal);
    }
    if (response.type === "opaqueredirect") {
      // A browser hides where a manual redirect goes: it cannot be checked, so it is not followed.
      throw new DirectoryError(
        "http",
        `Cannot read ${what}: ${shown} redirected, and a page cannot see where to`,
        {
          url: shown,
        },
      );
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      if (location === null) {
        throw new DirectoryError("http", `Cannot read ${what}: ${shown} redirected nowhere`, {
          url: shown,
        });
      }
      current = new URL(location, current);
      continue;
    }
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw tooLarge(what, shown, maxBytes, `${declared} bytes`);
    }
    const signal = options.signal ?? new AbortController().signal;
    try {
      return await readBytes(response.body, {
        server: shown,
        maxBytes,
        signal,
        stallMs: timeoutMs,
      });
    } catch (error) {
      if (error instanceof ResponseTooLargeError) {
        throw tooLarge(what, shown, maxBytes, `more than ${maxBytes} bytes`);
      }
      throw failure(error, what, shown, options.signal);
    }
  }
  throw new DirectoryError("http", `Cannot read ${what} from ${showUrl(url)}: too many redirects`, {
    url: showUrl(url),
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

function tooLarge(what: string, url: string, cap: number, size: string): DirectoryError {
  return new DirectoryError(
    "too-large",
    `Cannot read ${what}: ${url} sent ${size}; the limit is ${cap} bytes (reading stopped there)`,
    { url },
  );
}

function failure(error: unknown, what: string, url: string, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof DirectoryError) return error;
  if (error instanceof HTTPError) {
    const status = error.response.status;
    return new DirectoryError(
      status === 404 || status === 410 ? "not-found" : "http",
      `Cannot read ${what}: ${url} answered HTTP ${status}`,
      { url, status, cause: error },
    );
  }
  const reason = error instanceof TimeoutError
    ? "timed out"
    : `failed (${error instanceof Error ? error.message : String(error)})`;
  return new DirectoryError("network", `Cannot read ${what}: the request to ${url} ${reason}`, {
    url,
    cause: error,
  });
}
