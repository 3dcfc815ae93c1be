// Helpers the OAuthSession tests share (session.test.ts, session_signin.test.ts): a session that
// signs in through the OAuth pair of _oauth_server.ts, a fetch that records what the session
// sends, the key a DPoP proof carries, a second authorization server to move to, tokens made due.
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import {
  type AuthOptions,
  createMemoryOAuthStore,
  OAuthSession,
  type OAuthStore,
} from "../../../lib/mcp/auth/mod.ts";
import {
  approve,
  type OAuthServerOptions,
  type OAuthServers,
  withOAuthServers as withServers,
} from "../_oauth_server.ts";
import { type RogueServer, startRogueAuthorizationServer } from "../_oauth_rogue.ts";

export const REDIRECT = "http://127.0.0.1:9/callback";
export const CLIENT = { clientId: "svc", clientSecret: "svc-secret" };

/** Auth options that sign in through `approve`; `asked` gets each authorization URL. */
export function signingIn(store: OAuthStore, extra: Partial<AuthOptions> = {}) {
  const asked: URL[] = [];
  const auth: AuthOptions = {
    store,
    redirectUri: REDIRECT,
    onAuthorize: (url) => {
      asked.push(url);
      return approve(url);
    },
    ...extra,
  };
  return { auth, asked };
}

/** A session for `mcpUrl` signed in over a fresh store; `asked` as for `signingIn`. */
export async function signedIn(mcpUrl: string) {
  const store = createMemoryOAuthStore();
  const { auth, asked } = signingIn(store);
  const session = new OAuthSession(mcpUrl, auth);
  await session.signIn();
  return { store, asked, session };
}

/** One request the session sent through its `fetch`. */
export interface Sent {
  url: URL;
  headers: Headers;
  form: URLSearchParams;
}

/** A fetch for the session that records each request, then sends it as it is. */
export function recorder() {
  const sent: Sent[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    const body = init?.body;
    sent.push({
      url: new URL(input instanceof Request ? input.url : input),
      headers: new Headers(init?.headers),
      form: new URLSearchParams(
        typeof body === "string" || body instanceof URLSearchParams ? body : "",
      ),
    });
    return fetch(input, init);
  };
  return { sent, fetch: fetchFn };
}

/** The public key (crv, x, y) a DPoP proof carries in its header. */
export function proofKey(proof: string | null): string {
  assert.ok(proof, "a DPoP proof");
  const { jwk } = JSON.parse(Buffer.from(proof.split(".")[0], "base64url").toString());
  return `${jwk.crv}:${jwk.x}:${jwk.y}`;
}

/** Run `fn` with the OAuth pair and a second authorization server the pair can name. */
export async function withMove(
  fn: (servers: OAuthServers, options: OAuthServerOptions, rogue: RogueServer) => Promise<void>,
  options: OAuthServerOptions = {},
): Promise<void> {
  await withServers(options, async (servers) => {
    const rogue = await startRogueAuthorizationServer({ accept: servers.tokens });
    try {
      await fn(servers, options, rogue);
    } finally {
      await rogue.close();
    }
  });
}

/** Make the stored access token due for refresh: an hour old, a second left. */
export async function expiring(store: OAuthStore, url: string): Promise<string> {
  const record = (await store.get(url))!;
  await store.set(url, {
    ...record,
    tokens: {
      ...record.tokens!,
      obtainedAt: Date.now() - 3_600_000,
      expiresAt: Date.now() + 1_000,
    },
  });
  return record.tokens!.accessToken;
}

export const expired = () => ({
  obtainedAt: Date.now() - 7_200_000,
  expiresAt: Date.now() - 3_600_000,
});
