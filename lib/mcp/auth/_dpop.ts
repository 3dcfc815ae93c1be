// Private: DPoP (RFC 9449), used when the authorization server advertises
// `dpop_signing_alg_values_supported`: one key pair per session (private key non-extractable),
// proofs on token requests and on every resource request (with `ath`), and one retry with the
// server's nonce after a `use_dpop_nonce` challenge (RFC 9449 §8, §9).

import { loadOAuth, type OAuth } from "./_oauth.ts";
import type { DPoPKey } from "./types.ts";

/** The oauth4webapi handle behind each public, opaque key. */
const handles = new WeakMap<DPoPKey, OAuth.DPoPHandle>();

/** The opaque public face of `handle`, whose key pair signs with `algorithm`. */
export function dpopKey(handle: OAuth.DPoPHandle, algorithm: string): DPoPKey {
  const key: DPoPKey = Object.freeze({ algorithm });
  handles.set(key, handle);
  return key;
}

/** The handle behind `key`; a key the library did not make is refused. */
export function dpopHandle(key: DPoPKey): OAuth.DPoPHandle {
  const handle = handles.get(key);
  if (handle === undefined) throw new TypeError("not a DPoP key made by this session");
  return handle;
}

/** The algorithms we sign proofs with, in order of preference (all WebCrypto can generate). */
const ALGS = ["ES256", "ES384", "EdDSA", "PS256", "RS256"];

/** The proof algorithm to use with `as`, or `undefined` when it does not do DPoP. */
export function dpopAlgorithm(as: object): string | undefined {
  const supported = (as as { dpop_signing_alg_values_supported?: unknown })
    .dpop_signing_alg_values_supported;
  if (!Array.isArray(supported)) return undefined;
  return ALGS.find((alg) => supported.includes(alg));
}

/** A DPoP handle with a fresh key pair for `alg` (the private key cannot be exported). */
export async function createDPoP(alg: string): Promise<OAuth.DPoPHandle> {
  const oauth = await loadOAuth();
  return oauth.DPoP({}, await oauth.generateKeyPair(alg));
}

/** `request()`, once more when it failed for want of the server's DPoP nonce. */
export async function withDPoPNonce<T>(
  dpop: OAuth.DPoPHandle | undefined,
  request: () => Promise<T>,
): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (dpop === undefined || !(await loadOAuth()).isDPoPNonceError(error)) throw error;
    return await request(); // the handle has cached the nonce of the failed answer
  }
}

/**
 * A resource request with `Authorization: DPoP <token>` and a proof for its method and URL,
 * through `base`; an answer with a challenge is returned as it is, except a `use_dpop_nonce`
 * one, which is answered once with the server's nonce.
 */
export async function dpopRequest(
  dpop: OAuth.DPoPHandle,
  token: string,
  base: typeof fetch,
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  headers: Headers,
): Promise<Response> {
  const oauth = await loadOAuth();
  const url = new URL(input instanceof Request ? input.url : input);
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  headers.delete("authorization");
  for (let attempt = 0;; attempt++) {
    try {
      return await oauth.protectedResourceRequest(
        token,
        method,
        url,
        headers,
        null, // the body travels in `init` below, untouched
        {
          DPoP: dpop,
          // Our fetch with the caller's body, signal and redirect mode; oauth4webapi adds the
          // Authorization and DPoP headers.
          [oauth.customFetch]: (href: string, options: { headers: Record<string, string> }) =>
            base(href, { ...init, method, headers: options.headers }),
          [oauth.allowInsecureRequests]: true,
        },
      );
    } catch (error) {
      if (!(error instanceof oauth.WWWAuthenticateChallengeError)) throw error;
      // A challenge is the caller's to answer, except the first `use_dpop_nonce`: the handle
      // has cached the server's nonce, so the request goes again at once.
      if (attempt > 0 || !oauth.isDPoPNonceError(error)) return error.response;
      await error.response.body?.cancel().catch(() => {});
    }
  }
}
