// Private: which URLs OAuth may use — https, or plain http on a loopback host only — and how a
// refused one is reported (which server, which field, what was expected; never the query, and
// never more of a non-http URL than its scheme).

import { OAuthError } from "./errors.ts";

/** A loopback host as `URL.hostname` gives it: localhost, 127.0.0.0/8, [::1]. */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** https, or http on a loopback host. */
export function allowedOAuthUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname));
}

/** Origin and path of `url`, for messages: never its query (it may carry a code). */
export function shownUrl(url: URL): string {
  return url.protocol === "http:" || url.protocol === "https:"
    ? `${url.origin}${url.pathname}`
    : `${url.protocol}…`;
}

/** Refuse `url` (the value of `what`) unless it is https, or http on a loopback host. */
export function requireOAuthUrl(url: URL, server: string | undefined, what: string): void {
  if (allowedOAuthUrl(url)) return;
  throw new OAuthError(
    "insecure_url",
    `${server ?? url.host}: refused ${what} ${JSON.stringify(shownUrl(url))}: ` +
      `OAuth needs an https URL (or http on a loopback host: 127.0.0.0/8, [::1], localhost)`,
    { server },
  );
}
