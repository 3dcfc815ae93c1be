// Private: the one fetch every OAuth request goes through (metadata, registration, token,
// revocation). Each URL — the first and every redirect hop — must be https (http only on a
// loopback host) and pass the caller's URL check (connect()'s URL policy) before anything is
// sent; redirects are followed here, hop by hop, never by the platform; and an answer is read
// with a byte cap, like MCP answers, so a hostile server cannot grow memory without bound.

import { ResponseTooLargeError } from "../protocol/errors.ts";
import { readBody } from "../transport/_stream.ts";
import { OAuthError } from "./errors.ts";
import { requireOAuthUrl, shownUrl } from "./_oauth_url.ts";

/** The default cap of one OAuth answer: far above any real metadata, registration or token. */
export const OAUTH_MAX_BYTES = 1024 * 1024;

const MAX_REDIRECTS = 5;
/** Statuses whose Response may not carry a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** What the guard needs. */
export interface GuardOptions {
  /** The server name for messages. */
  server?: string;
  /** The caller's URL check (connect() passes its URL policy); throws to refuse. */
  check?: (url: URL) => Promise<void>;
  /** The byte cap of one answer (default {@link OAUTH_MAX_BYTES}). */
  maxBytes?: number;
}

/** `base`, with every URL checked, redirects followed hop by hop, and answers capped. */
export function guardFetch(base: typeof fetch, options: GuardOptions = {}): typeof fetch {
  const { server, check } = options;
  const maxBytes = options.maxBytes ?? OAUTH_MAX_BYTES;
  return async (input, init) => {
    let url = new URL(input instanceof Request ? input.url : input);
    const follow = init?.redirect === undefined || init.redirect === "follow";
    for (let hop = 0;; hop++) {
      requireOAuthUrl(url, server, hop === 0 ? "the URL" : "the redirect to");
      await check?.(url);
      const target: RequestInfo | URL = hop === 0 ? input : url;
      const response = await base(target, { ...init, redirect: "manual" });
      const location = response.headers.get("location");
      if (follow && response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => {});
        if (hop >= MAX_REDIRECTS) {
          throw new OAuthError(
            "metadata_not_found",
            `${server ?? url.host}: ${shownUrl(url)} redirects more than ${MAX_REDIRECTS} times`,
            { server },
          );
        }
        url = new URL(location, url);
        continue;
      }
      if (follow && response.type === "opaqueredirect") {
        // A browser hides where a redirect goes: it cannot be checked, so it is not followed.
        throw new OAuthError(
          "metadata_not_found",
          `${server ?? url.host}: ${shownUrl(url)} redirects, and a browser does not say where ` +
            `to; give the final URL instead`,
          { server },
        );
      }
      return await capped(response, url, server, maxBytes, init?.signal ?? undefined);
    }
  };
}

/** `response` with its body read under the cap (and the connection closed past it). */
async function capped(
  response: Response,
  url: URL,
  server: string | undefined,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<Response> {
  if (response.body === null || response.status === 0) return response;
  const tooLarge = () => {
    const error = new ResponseTooLargeError(maxBytes, { server });
    error.message = `${server ?? url.host}: the answer of ${
      shownUrl(url)
    } exceeds the ${maxBytes}-byte cap of OAuth answers; refused it`;
    return error;
  };
  if (Number(response.headers.get("content-length") ?? 0) > maxBytes) {
    await response.body.cancel().catch(() => {});
    throw tooLarge();
  }
  let text: string;
  try {
    text = await readBody(response.body, {
      server: server ?? url.host,
      maxBytes,
      signal: signal ?? new AbortController().signal,
    });
  } catch (error) {
    throw error instanceof ResponseTooLargeError ? tooLarge() : error;
  }
  const { status, statusText, headers } = response;
  return new Response(NULL_BODY.has(status) ? null : text, { status, statusText, headers });
}
