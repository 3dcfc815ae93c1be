/**
 * A `fetch` that signs requests to an OAuth-protected MCP server: the access token on every
 * request (`Bearer`, or `DPoP` with a fresh proof when the token is DPoP-bound, RFC 9449), a sign-in or refresh on a 401, step-up on a 403 `insufficient_scope`, then the
 * request again. `connect()` wraps its fetch with it when a server has the `auth` option.
 *
 * @module
 */

import { parseBearerChallenge } from "./challenge.ts";
import { OAuthError } from "./errors.ts";
import type { OAuthSession } from "./session.ts";
import { dpopHandle, dpopRequest } from "./_dpop.ts";

/**
 * Wrap `base` so that every request carries `session`'s access token and authorization
 * challenges are answered (at most two 401 rounds per request; step-ups are limited by the
 * session). Request bodies must be strings or absent (they are sent again).
 *
 * @example
 * ```ts
 * import { createAuthFetch, OAuthSession } from "@skillmux/core/oauth";
 * const session = new OAuthSession("https://mcp.example.com/mcp", { clientCredentials: { clientId: "bot", clientSecret: "s" } });
 * const authed = createAuthFetch(session);
 * const response = await authed("https://mcp.example.com/mcp", { method: "POST", body: "{}" });
 * ```
 */
export function createAuthFetch(
  session: OAuthSession,
  base: typeof fetch = (input, init) => fetch(input, init),
): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    for (let round = 0;; round++) {
      const { token, dpop } = await session.credentials();
      const headers = new Headers(init?.headers);
      let response: Response;
      if (token !== undefined && dpop !== undefined) {
        response = await dpopRequest(dpopHandle(dpop), token, base, input, init, headers);
      } else {
        if (token !== undefined) headers.set("Authorization", `Bearer ${token}`);
        response = await base(input, { ...init, headers });
      }
      const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
      if (response.status === 401 && round < 2) {
        if (!(await session.unauthorized(challenge, token))) return response;
        await response.body?.cancel().catch(() => {});
        continue;
      }
      if (response.status === 403 && challenge?.error === "insufficient_scope") {
        await response.body?.cancel().catch(() => {});
        if (await session.insufficientScope(challenge)) continue;
        throw new OAuthError(
          "insufficient_scope",
          `${session.server}: the server still refuses the request for want of scope ` +
            `"${challenge.scope ?? ""}" after the step-up limit`,
          { server: session.server },
        );
      }
      if (response.ok) session.succeeded();
      return response;
    }
  };
}
