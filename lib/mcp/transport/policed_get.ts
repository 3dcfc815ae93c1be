/**
 * One policed GET for the layers that download what a URL they were handed points to (MCP
 * registries in `mcp/directory/`, community install in `install/`): `ky` with a timeout and
 * retries on 408/429/5xx, redirects followed by hand (at most five) with the URL policy
 * (`checkUrl`, then `checkConnectTarget`) checked on the first URL and on every hop, a size cap
 * checked on the `Content-Length` and again while streaming, and a stall timer on the body.
 *
 * It throws no error of its own: the caller hands it `fail`, which turns a neutral
 * {@linkcode GetFailure} (a kind, the URL, the status, the cause) into the caller's family's
 * error, with the caller's words. A cancelled request throws the signal's reason as it is.
 *
 * @module
 */

import ky, { HTTPError, TimeoutError } from "ky";
import { checkConnectTarget } from "../policy/connect_target.ts";
import { checkUrl, type UrlPolicyOptions } from "../policy/url.ts";
import { ResponseTooLargeError, StreamEndedError } from "../protocol/errors.ts";
import { readBytes } from "./_stream.ts";

/** Redirect hops followed after the first request. */
const MAX_REDIRECTS = 5;

/**
 * Why a policed GET failed:
 * - `policy`: the URL policy refused the first URL or a redirect hop, or could not check it (a
 *   host that does not resolve in strict mode; the cause says which);
 * - `not-found`: HTTP 404 or 410; `http`: any other status of 400 or more;
 * - `network`: the request or the body read broke; `timeout`: no answer within the timeout, or
 *   a body that stalled for as long;
 * - `too-large`: over the cap, declared or streamed; `encoding`: content-encoded although only
 *   identity was accepted;
 * - `redirect`: too many hops, a redirect a browser hides, or one with no `Location`.
 */
export type GetFailureKind =
  | "policy"
  | "http"
  | "not-found"
  | "network"
  | "timeout"
  | "too-large"
  | "encoding"
  | "redirect";

/** What went wrong in a policed GET, in neutral words: the caller's `fail` makes its error. */
export interface GetFailure {
  /** Why it failed. */
  kind: GetFailureKind;
  /**
   * The URL concerned, origin and path only ({@linkcode showUrl}): the hop that failed, or the
   * first URL after too many redirects.
   */
  url: string;
  /** What happened, with the URL, for the caller to prefix with what it was reading. */
  message: string;
  /** For `policy`: the first URL (`url`) or a redirect hop (`redirect`). */
  field?: "url" | "redirect";
  /** For `http` and `not-found`: the status. */
  status?: number;
  /** For `too-large`: the cap in bytes. */
  limit?: number;
  /** For `too-large` by `Content-Length`: the size declared (absent: stopped at the cap). */
  declared?: number;
  /** For `encoding`: the `Content-Encoding` answered. */
  encoding?: string;
  /** For `redirect`: too many hops, hidden by the browser, or with no `Location`. */
  redirect?: "too-many" | "hidden" | "nowhere";
  /** The underlying error (the policy's refusal, ky's error, the reader's). */
  cause?: unknown;
}

/** Options of {@linkcode policedGet}. */
export interface PolicedGetOptions {
  /** The largest body read, in bytes: reading stops there. */
  maxBytes: number;
  /** The `Accept` header. */
  accept: string;
  /** Turns a failure into the error thrown (the caller's family, the caller's words). */
  fail: (failure: GetFailure) => Error;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Per-attempt timeout in ms, and the longest a body may stall between chunks. Default 15 000. */
  timeoutMs?: number;
  /** Retries after a network error or a 408/429/5xx answer. Default 2. */
  retries?: number;
  /** Which URLs may be contacted, redirects included (default: https, http only to loopback). */
  urlPolicy?: UrlPolicyOptions;
  /** Cancels the request and the read; its reason is thrown. */
  signal?: AbortSignal;
  /**
   * Ask for `Accept-Encoding: identity` and refuse an answer content-encoded all the same, before
   * reading it (kind `encoding`). Default `false`: fetch decodes what it is sent.
   */
  identity?: boolean;
  /**
   * A 3xx with no `Location`: `refuse` (kind `redirect`, the default) or `read` as the answer.
   */
  redirectWithoutLocation?: "refuse" | "read";
}

/**
 * Where a URL points, for messages: origin and path, never credentials or the query.
 *
 * @example
 * ```ts
 * import { showUrl } from "./policed_get.ts";
 * console.log(showUrl(new URL("https://u:p@example.org/x.json?key=k"))); // "https://example.org/x.json"
 * ```
 */
export function showUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * GET `url` and return its body, at most `maxBytes`, or throw what `fail` makes of the failure
 * (the signal's reason when it was cancelled).
 *
 * @example Read a small JSON document, failing with the caller's own error
 * ```ts
 * import { policedGet } from "./policed_get.ts";
 * const bytes = await policedGet(new URL("https://example.org/index.json"), {
 *   maxBytes: 1024 * 1024,
 *   accept: "application/json",
 *   fail: (failure) => new Error(`Cannot read the index: ${failure.message}`),
 * });
 * console.log(JSON.parse(new TextDecoder().decode(bytes)));
 * ```
 */
export async function policedGet(url: URL, options: PolicedGetOptions): Promise<Uint8Array> {
  const { fail, signal, maxBytes } = options;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const headers: Record<string, string> = { accept: options.accept };
  if (options.identity) headers["accept-encoding"] = "identity";
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const field = hop === 0 ? "url" : "redirect";
    const shown = showUrl(current);
    try {
      checkUrl(current, options.urlPolicy, field);
      await checkConnectTarget(current, options.urlPolicy);
    } catch (cause) {
      const message = `Refusing ${shown}: ${messageOf(cause)}`;
      throw fail({ kind: "policy", url: shown, message, field, cause });
    }
    let response: Response;
    try {
      response = await ky.get(current, {
        fetch: options.fetch,
        timeout: timeoutMs,
        retry: { limit: options.retries ?? 2, methods: ["get"], backoffLimit: 2_000 },
        redirect: "manual",
        throwHttpErrors: (status) => status >= 400,
        signal,
        headers,
      });
    } catch (error) {
      throw signal?.aborted ? signal.reason : fail(requestFailure(error, shown));
    }
    if (response.type === "opaqueredirect") {
      // A browser hides where a manual redirect goes: it cannot be checked, so it is not followed.
      const message = `${shown} redirected, and a page cannot see where to`;
      throw fail({ kind: "redirect", redirect: "hidden", url: shown, message });
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400) {
      if (location !== null) {
        await response.body?.cancel();
        current = new URL(location, current);
        continue;
      }
      if (options.redirectWithoutLocation !== "read") {
        await response.body?.cancel();
        const message = `${shown} redirected nowhere`;
        throw fail({ kind: "redirect", redirect: "nowhere", url: shown, message });
      }
    }
    const encoding = response.headers.get("content-encoding")?.trim();
    if (options.identity && encoding && encoding.toLowerCase() !== "identity") {
      // fetch would decode it on its own: a few kilobytes of gzip can expand to gigabytes, and
      // even cut at the cap every decoded byte costs more in buffers not yet freed.
      await response.body?.cancel();
      const message = `${shown} answered with Content-Encoding "${encoding}" although only ` +
        `identity was accepted; refusing it unread`;
      throw fail({ kind: "encoding", url: shown, message, encoding });
    }
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw fail(tooLarge(shown, maxBytes, declared));
    }
    try {
      return await readBytes(response.body, {
        server: shown,
        maxBytes,
        signal: signal ?? new AbortController().signal,
        stallMs: timeoutMs,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof ResponseTooLargeError) throw fail(tooLarge(shown, maxBytes));
      if (error instanceof StreamEndedError) {
        const message = `the request to ${shown} stalled (no data for ${timeoutMs} ms)`;
        throw fail({ kind: "timeout", url: shown, message, cause: error });
      }
      throw fail(requestFailure(error, shown));
    }
  }
  const first = showUrl(url);
  const message = `too many redirects from ${first}`;
  throw fail({ kind: "redirect", redirect: "too-many", url: first, message });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function tooLarge(url: string, limit: number, declared?: number): GetFailure {
  const size = declared === undefined ? `more than ${limit} bytes` : `${declared} bytes`;
  const message = `${url} sent ${size}; the limit is ${limit} bytes`;
  return declared === undefined
    ? { kind: "too-large", url, message, limit }
    : { kind: "too-large", url, message, limit, declared };
}

function requestFailure(error: unknown, url: string): GetFailure {
  if (error instanceof HTTPError) {
    const status = error.response.status;
    const kind = status === 404 || status === 410 ? "not-found" : "http";
    return { kind, url, status, message: `${url} answered HTTP ${status}`, cause: error };
  }
  if (error instanceof TimeoutError) {
    return { kind: "timeout", url, message: `the request to ${url} timed out`, cause: error };
  }
  const message = `the request to ${url} failed (${messageOf(error)})`;
  return { kind: "network", url, message, cause: error };
}
