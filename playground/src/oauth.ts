// Sign-in to OAuth-protected MCP servers from the page.
//
// The flow runs in a popup, not a full-page navigation: the library's `onAuthorize` callback
// keeps the PKCE verifier and `state` in memory while it waits for the redirect, and a full-page
// navigation would unload them (and the page's unsaved state). The popup is opened in the click
// handler itself (a user gesture, so popup blockers let it through) and pointed at the
// authorization URL once discovery and registration are done. The authorization server
// redirects it back to this page with `?oauth=callback&code=…&state=…`; that page load relays
// its URL over a BroadcastChannel (same origin; works even when the authorization server's
// Cross-Origin-Opener-Policy cuts `window.opener`) and closes. Tokens live in IndexedDB, the
// secret fields sealed under a non-extractable WebCrypto key.
import type { RegisteredServer } from "@skillmux/core";
import { createSecretBox } from "@skillmux/core/mcp";
import { prepareServer } from "@skillmux/core/policy";
import { createOAuthStore, type OAuthRecord, type OAuthStore, OAuthSession } from "@skillmux/core/oauth";
import { createIndexedDbStorage, loadIndexedDbCryptoKey } from "@skillmux/core/indexed-db";
import { answers } from "./errors.ts";
import { signInPopupUrl } from "./popup_url.ts";

const CHANNEL = "skillmux-oauth";
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** How long a closed popup's redirect may still be on its way before the sign-in fails. */
const CLOSED_GRACE_MS = 2_000;

/** Registrations and tokens, per MCP server, in IndexedDB, sealed. */
const sealed = createOAuthStore(createIndexedDbStorage({ dbName: "skillmux-oauth" }), {
  box: createSecretBox({ key: () => loadIndexedDbCryptoKey({ name: "oauth" }) }),
});

/**
 * The sealed store with the records this page already read kept in memory: a session's DELETE
 * from `pagehide` then has its token at once (an IndexedDB read and a WebCrypto decrypt finish
 * only after the page is gone, and the DELETE was lost). Other tabs say when they change a record
 * (a refresh rotates tokens), and this tab reads it afresh.
 */
const held = new Map<string, OAuthRecord | undefined>();
const changes = new BroadcastChannel("skillmux-oauth-store");
changes.onmessage = (event) => void held.delete(String(event.data));
export const oauthStore: OAuthStore = {
  async get(resource) {
    if (held.has(resource)) return structuredClone(held.get(resource));
    const record = await sealed.get(resource);
    held.set(resource, record);
    return structuredClone(record);
  },
  async set(resource, record) {
    await sealed.set(resource, record);
    held.set(resource, structuredClone(record));
    changes.postMessage(resource);
  },
  async delete(resource) {
    await sealed.delete(resource);
    held.delete(resource);
    changes.postMessage(resource);
  },
  // A refresh holds the lock every tab shares (a lease in IndexedDB) and reads the record again
  // under it: from IndexedDB, not this tab's copy, which another tab's rotation may have outdated.
  exclusive: (resource, fn) =>
    sealed.exclusive!(resource, () => {
      held.delete(resource);
      return fn();
    }),
};

/** Where the authorization server sends the browser back: this page, marked as a callback. */
export function redirectUri(): string {
  return `${location.origin}${location.pathname}?oauth=callback`;
}

/** Whether this page load is the redirect back from an authorization server. */
export function isOAuthCallback(): boolean {
  return new URLSearchParams(location.search).get("oauth") === "callback";
}

/** In the popup: hand the redirect URL to the page that started the sign-in, then close. */
export function relayCallback(): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(location.href);
  channel.close();
  document.body.textContent = "Sign-in finished: this window can be closed.";
  globalThis.close();
}

/** The key the library stores a server's tokens under: its endpoint (`/mcp` added if no path). */
function resourceOf(server: RegisteredServer): string {
  return prepareServer(server, { env: {} }).url!.href;
}

/** Whether tokens are stored for `server`. */
export async function hasTokens(server: RegisteredServer): Promise<boolean> {
  if (server.url === undefined) return false;
  return (await oauthStore.get(resourceOf(server)).catch(() => undefined))?.tokens !== undefined;
}

/** Wait for the redirect carrying `state` from the popup; fails when the popup is closed. */
function redirectFor(state: string | null, popup: Window): Promise<URL> {
  const channel = new BroadcastChannel(CHANNEL);
  let timer: ReturnType<typeof setInterval> | undefined;
  const started = Date.now();
  let closedAt: number | undefined;
  return new Promise<URL>((resolve, reject) => {
    channel.onmessage = (event) => {
      const url = new URL(String(event.data));
      if (url.searchParams.get("state") === state) resolve(url);
    };
    timer = setInterval(() => {
      if (popup.closed) {
        // The popup posts the redirect and closes at once: its message can arrive after the
        // window reads as closed (a successful sign-in was once reported as closed early).
        closedAt ??= Date.now();
        if (Date.now() - closedAt >= CLOSED_GRACE_MS) {
          reject(new Error("The sign-in window was closed before it finished"));
        }
      } else if (Date.now() - started > SIGN_IN_TIMEOUT_MS) {
        reject(new Error("The sign-in timed out"));
      }
    }, 400);
  }).finally(() => {
    clearInterval(timer);
    channel.close();
  });
}

/** The origins whose requests failed at the network level (no answer, or CORS refused). */
function tracking(failed: Set<string>): typeof fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      if ((error as Error)?.name === "TypeError") {
        failed.add(new URL(input instanceof Request ? input.url : String(input)).origin);
      }
      throw error;
    }
  };
}

/** Why a sign-in failed, in words: a refused CORS request names the origin and the ways out. */
async function explainSignIn(error: unknown, server: RegisteredServer, failed: Set<string>) {
  const serverOrigin = new URL(resourceOf(server)).origin;
  for (const origin of failed) {
    if (!(await answers(origin))) {
      return `Cannot reach ${origin}: nothing answers there. Is it running?`;
    }
    const who = origin === serverOrigin
      ? `The MCP server ${origin}`
      : `The authorization server ${origin}`;
    return `CORS blocked: ${who} refuses requests from this page (${location.origin}). ` +
      `It must allow CORS for this origin (Access-Control-Allow-Origin: ${location.origin}) ` +
      `on its metadata, registration and token endpoints — or sign in from the command line: ` +
      `skillmux mcp login ${server.name}`;
  }
  const e = error as { name?: string; message?: string };
  return `${e?.name && e.name !== "Error" ? `${e.name}: ` : ""}${e?.message ?? String(error)}`;
}

/**
 * Sign in to `server` through `popup` (opened by the caller in its click handler). Resolves
 * `undefined` when signed in, else the reason in words. The popup is closed either way.
 */
export async function signIn(server: RegisteredServer, popup: Window): Promise<string | undefined> {
  const failed = new Set<string>();
  const session = new OAuthSession(resourceOf(server), {
    store: oauthStore,
    redirectUri: redirectUri(),
    clientName: "skillmux playground",
    onAuthorize(url) {
      // The popup is same-origin (about:blank) until now: only a checked http(s) URL goes there.
      popup.location.href = signInPopupUrl(url);
      return redirectFor(url.searchParams.get("state"), popup);
    },
  }, { server: server.name, fetch: tracking(failed) });
  try {
    await session.signIn();
    return undefined;
  } catch (error) {
    return await explainSignIn(error, server, failed);
  } finally {
    popup.close();
  }
}

/**
 * Sign out of `server`: the library revokes its tokens at the authorization server (when it has
 * a revocation endpoint) and forgets them either way. Resolves a warning in words when the
 * revocation failed, else `undefined`.
 */
export async function signOut(server: RegisteredServer): Promise<string | undefined> {
  const session = new OAuthSession(resourceOf(server), { store: oauthStore }, {
    server: server.name,
  });
  const { warning } = await session.signOut();
  return warning === undefined ? undefined : `Signed out, but ${warning}`;
}
