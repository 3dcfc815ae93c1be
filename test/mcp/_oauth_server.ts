// A small OAuth authorization server and an OAuth-protected MCP server, both on 127.0.0.1
// port 0 (node:http), for the library's and the CLI's sign-in tests. Runs under Node and Deno.
//
// startOAuthServers(options) → { mcpUrl, issuer, tokens, requests, close() }
//   - The authorization server: RFC 8414 metadata, dynamic registration (public clients),
//     /authorize that approves at once (302 to the redirect URI with code, state and iss), and
//     /token (authorization_code with PKCE S256 and `resource` checked; refresh_token; and
//     client_credentials for the `clientCredentials` option's client, with client_secret_basic).
//   - The MCP server: the SDK server of ./_servers.ts behind a bearer check; a request without a
//     valid token gets 401 with `WWW-Authenticate: Bearer resource_metadata=…`; the
//     protected-resource metadata is at /.well-known/oauth-protected-resource/mcp.
//   - Faults: `issuer` (the metadata names another issuer), `iss` ("wrong" in the redirect),
//     `state` ("wrong"), `tokenHtml` (the token endpoint answers an HTML page),
//     `refusedRefresh` (refresh_token grants get 400 invalid_grant), `refusedClient` (they get
//     401 invalid_client: the registration is gone), `expiresIn` (seconds),
//     `noS256` (PKCE plain only), `echoToken` (the MCP server echoes the caller's valid bearer
//     token: "rpc" in a JSON-RPC error's message and data, "http" in a 400 body). Options are
//     read per request: a test may change them. `asCors` (an origin): the authorization server
//     allows that origin's cross-origin requests (a browser's sign-in); without it, it sends no
//     CORS headers at all, as many authorization servers do; `asCorsExcept` (a path, e.g.
//     "/token"): that endpoint alone sends none.
//   - /revoke (RFC 7009, advertised as `revocation_endpoint`): needs the client_id (in the form
//     or a Basic Authorization header), records the token in `revoked` and invalidates it (a
//     revoked refresh token no longer refreshes).
//     Faults: `noRevocation` (not advertised), `revocationStatus` (it answers that HTTP status
//     with an HTML page), `revocationEndpoint` (the advertised URL, e.g. a closed port).
//   - `dpop` (RFC 9449): the metadata advertises `dpop_signing_alg_values_supported`; a token
//     request with a valid `DPoP` proof gets a token bound to the proof's key (`token_type`
//     DPoP), which the MCP server accepts only as `Authorization: DPoP` with a valid proof for
//     the request's method and URL (`ath`, key thumbprint, a jti never seen before).
//   - Issuer switches (read per request): `authorizationServers` (the issuers the protected-
//     resource metadata names instead of this one, e.g. a rogue server of ./_oauth_rogue.ts),
//     `clientSecret` (registration issues confidential clients: a `client_secret`, used with
//     client_secret_basic), `forbid` (valid tokens the MCP server answers with 403
//     insufficient_scope, to start a step-up), `metadataRedirect` (the protected-resource
//     metadata answers 302 to that URL), `resourceScopes` (the protected-resource metadata's
//     `scopes_supported` instead of ["mcp"]; `null`: none listed).
//   - Refresh tokens rotate: each refresh issues a new one and the old one stops working. A
//     rotated one presented again is logged as "token refresh_token reused"; with `reuseRevokes`
//     (RFC 9700 §4.14.2 reuse detection) the token issued in its place is revoked too, so a
//     client that lost a race with itself loses the whole grant. `refreshDelayMs` holds each
//     refresh answer that long (so concurrent refreshes overlap).
//   - requests: "<METHOD> <path>" of every request to either server, and the token grants
//     ("token <grant_type>", "dpop token" for a valid proof there, "dpop <METHOD>" at the MCP
//     server).

import { createHash, createPublicKey, randomUUID, verify } from "node:crypto";
import http from "node:http";
import { listenLocal, type SdkServerOptions, startSdkServer } from "./_servers.ts";

/** Options of {@linkcode startOAuthServers}. */
export interface OAuthServerOptions extends SdkServerOptions {
  issuer?: string;
  iss?: "wrong" | "omit";
  state?: "wrong";
  tokenHtml?: boolean;
  refusedRefresh?: boolean;
  expiresIn?: number;
  noS256?: boolean;
  echoToken?: "rpc" | "http";
  asCors?: string;
  asCorsExcept?: string;
  noRevocation?: boolean;
  /** The metadata advertises no `registration_endpoint`. */
  noRegistration?: boolean;
  revocationStatus?: number;
  revocationEndpoint?: string;
  dpop?: boolean;
  authorizationServers?: string[];
  clientSecret?: boolean;
  forbid?: Set<string>;
  metadataRedirect?: string;
  /** The protected-resource metadata's `scopes_supported` (default ["mcp"]; `null`: absent). */
  resourceScopes?: string[] | null;
  /** Refresh token grants get 401 invalid_client (the registration is gone). */
  refusedClient?: boolean;
  /** A rotated refresh token presented again revokes the one issued in its place. */
  reuseRevokes?: boolean;
  /** Hold each refresh answer this long (ms). */
  refreshDelayMs?: number;
  /** A client for the client credentials grant (client_secret_basic). */
  clientCredentials?: { clientId: string; clientSecret: string };
}

/** The running pair. */
export interface OAuthServers {
  mcpUrl: string;
  issuer: string;
  /** Valid access tokens. */
  tokens: Set<string>;
  /** The tokens revoked at /revoke, in order. */
  revoked: string[];
  /** Every request as "<METHOD> <path>", token requests as "token <grant_type>". */
  requests: string[];
  close(): Promise<void>;
}

/** `id:secret` of a client_secret_basic Authorization header (form-decoded), else undefined. */
function basicClient(req: http.IncomingMessage): string | undefined {
  const [, encoded] = /^Basic (.+)$/.exec(req.headers.authorization ?? "") ?? [];
  if (encoded === undefined) return undefined;
  const [id, secret] = Buffer.from(encoded, "base64").toString().split(":");
  const decode = (v = "") => decodeURIComponent(v.replace(/\+/g, " "));
  return `${decode(id)}:${decode(secret)}`;
}

/**
 * The key thumbprint (RFC 7638) of a valid ES256 DPoP proof for `method` and `url` (and the
 * access token `token`, when given), else `undefined`.
 */
function checkProof(
  proof: string | string[] | undefined,
  method: string,
  url: string,
  jtis: Set<string>,
  token?: string,
): string | undefined {
  if (typeof proof !== "string") return undefined;
  try {
    const [h, p, sig] = proof.split(".");
    const header = JSON.parse(Buffer.from(h, "base64url").toString());
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    const jwk = header.jwk;
    if (header.typ !== "dpop+jwt" || header.alg !== "ES256" || jwk?.d !== undefined) return;
    const key = createPublicKey({ key: jwk, format: "jwk" });
    const signed = verify(
      "sha256",
      Buffer.from(`${h}.${p}`),
      { key, dsaEncoding: "ieee-p1363" },
      Buffer.from(sig, "base64url"),
    );
    const ath = token && createHash("sha256").update(token).digest("base64url");
    if (!signed || claims.htm !== method || claims.htu !== url || claims.ath !== ath) return;
    if (typeof claims.jti !== "string" || jtis.has(claims.jti)) return;
    if (Math.abs(Date.now() / 1000 - claims.iat) > 60) return;
    jtis.add(claims.jti);
    const members = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
    return createHash("sha256").update(members).digest("base64url");
  } catch {
    return undefined;
  }
}

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.on("data", (chunk: Uint8Array) => (text += new TextDecoder().decode(chunk)));
    req.on("end", () => resolve(new URLSearchParams(text)));
    req.on("error", reject);
  });
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** A server that hands the caller's token back where a client may show it: an error. */
async function echo(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  token: string,
  how: "rpc" | "http",
): Promise<void> {
  let body = "";
  for await (const chunk of req) body += chunk;
  const id = (JSON.parse(body) as { id?: unknown }).id ?? null;
  if (how === "http") {
    res.writeHead(400, { "content-type": "text/plain" }).end(`token ${token} is not welcome`);
    return;
  }
  json(res, 200, {
    jsonrpc: "2.0",
    id,
    error: { code: -32000, message: `refused token ${token}`, data: { token, seen: [token] } },
  });
}

/** Start the authorization server and the protected MCP server. */
export async function startOAuthServers(options: OAuthServerOptions = {}): Promise<OAuthServers> {
  const requests: string[] = [];
  const tokens = new Set<string>();
  const revoked: string[] = [];
  const refreshTokens = new Set<string>();
  /** Each rotated refresh token → the one issued in its place. */
  const rotatedTo = new Map<string, string>();
  /** DPoP-bound access tokens and the thumbprint of their key; the proofs' jtis seen. */
  const bound = new Map<string, string>();
  const jtis = new Set<string>();
  const codes = new Map<string, { challenge: string; resource: string; redirectUri: string }>();
  let issuer = "";
  let mcpUrl = "";
  const as = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    requests.push(`${req.method} ${url.pathname}`);
    if (options.asCors !== undefined && url.pathname !== options.asCorsExcept) {
      res.setHeader("access-control-allow-origin", options.asCors);
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          "access-control-allow-methods": "GET, POST, OPTIONS",
          "access-control-allow-headers": "content-type, accept, authorization, dpop",
          "access-control-max-age": "60",
        }).end();
        return;
      }
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer: options.issuer ?? issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        ...(options.noRegistration ? {} : { registration_endpoint: `${issuer}/register` }),
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: options.noS256 ? ["plain"] : ["S256"],
        token_endpoint_auth_methods_supported: options.clientSecret
          ? ["client_secret_basic"]
          : ["none"],
        authorization_response_iss_parameter_supported: true,
        scopes_supported: ["mcp", "offline_access"],
        ...(options.dpop ? { dpop_signing_alg_values_supported: ["ES256"] } : {}),
        ...(options.noRevocation
          ? {}
          : { revocation_endpoint: options.revocationEndpoint ?? `${issuer}/revoke` }),
      });
    }
    if (url.pathname === "/register" && req.method === "POST") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const metadata = JSON.parse(body);
      const secret = options.clientSecret
        ? { client_secret: `cs-${randomUUID()}`, token_endpoint_auth_method: "client_secret_basic" }
        : {};
      return json(res, 201, { ...metadata, client_id: `client-${randomUUID()}`, ...secret });
    }
    if (url.pathname === "/authorize") {
      const q = url.searchParams;
      const code = randomUUID();
      codes.set(code, {
        challenge: q.get("code_challenge") ?? "",
        resource: q.get("resource") ?? "",
        redirectUri: q.get("redirect_uri") ?? "",
      });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", options.state === "wrong" ? "not-the-state" : q.get("state")!);
      if (options.iss !== "omit") {
        back.searchParams.set("iss", options.iss === "wrong" ? "https://evil.example" : issuer);
      }
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/revoke" && req.method === "POST") {
      const form = await readForm(req);
      requests.push(`revoke ${form.get("token_type_hint")}`);
      if (options.revocationStatus !== undefined) {
        res.writeHead(options.revocationStatus, { "content-type": "text/html" }).end("<p>down</p>");
        return;
      }
      if (!form.get("client_id") && basicClient(req) === undefined) {
        return json(res, 401, { error: "invalid_client" });
      }
      const token = form.get("token") ?? "";
      revoked.push(token);
      tokens.delete(token);
      refreshTokens.delete(token);
      res.writeHead(200).end();
      return;
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const form = await readForm(req);
      const grant = form.get("grant_type");
      requests.push(`token ${grant}`);
      let rotatedFrom: string | undefined;
      if (options.tokenHtml) {
        res.writeHead(200, { "content-type": "text/html" }).end(
          "<html><body>Sign in</body></html>",
        );
        return;
      }
      if (grant === "authorization_code") {
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (
          !code || code.challenge !== challenge || code.resource !== form.get("resource") ||
          code.redirectUri !== form.get("redirect_uri")
        ) {
          return json(res, 400, { error: "invalid_grant" });
        }
      } else if (grant === "refresh_token") {
        const old = form.get("refresh_token") ?? "";
        if (options.refreshDelayMs) {
          await new Promise((resolve) => setTimeout(resolve, options.refreshDelayMs));
        }
        if (options.refusedClient) return json(res, 401, { error: "invalid_client" });
        if (options.refusedRefresh || !refreshTokens.delete(old)) {
          if (rotatedTo.has(old)) {
            requests.push("token refresh_token reused");
            if (options.reuseRevokes) {
              for (let t = rotatedTo.get(old); t !== undefined; t = rotatedTo.get(t)) {
                refreshTokens.delete(t);
              }
            }
          }
          return json(res, 400, { error: "invalid_grant" });
        }
        rotatedFrom = old;
      } else if (grant === "client_credentials" && options.clientCredentials) {
        const { clientId, clientSecret } = options.clientCredentials;
        if (basicClient(req) !== `${clientId}:${clientSecret}`) {
          return json(res, 401, { error: "invalid_client" });
        }
        const access = `at-${randomUUID()}`;
        tokens.add(access);
        return json(res, 200, {
          access_token: access,
          token_type: "Bearer",
          expires_in: options.expiresIn ?? 3600,
          ...(form.get("scope") ? { scope: form.get("scope") } : {}),
        });
      } else {
        return json(res, 400, { error: "unsupported_grant_type" });
      }
      const access = `at-${randomUUID()}`;
      const refresh = `rt-${randomUUID()}`;
      tokens.add(access);
      refreshTokens.add(refresh);
      if (rotatedFrom !== undefined) rotatedTo.set(rotatedFrom, refresh);
      let type = "Bearer";
      if (options.dpop && req.headers.dpop !== undefined) {
        const jkt = checkProof(req.headers.dpop, "POST", `${issuer}/token`, jtis);
        if (jkt === undefined) return json(res, 400, { error: "invalid_dpop_proof" });
        requests.push("dpop token");
        bound.set(access, jkt);
        type = "DPoP";
      }
      return json(res, 200, {
        access_token: access,
        token_type: type,
        expires_in: options.expiresIn ?? 3600,
        refresh_token: refresh,
      });
    }
    res.writeHead(404).end();
  });
  const asListening = await listenLocal(as);
  issuer = `http://127.0.0.1:${asListening.port}`;
  const metadataPath = "/.well-known/oauth-protected-resource/mcp";
  const mcp = await startSdkServer({
    ...options,
    guard(req, res) {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      requests.push(`${req.method} ${path}`);
      if (path === metadataPath && options.metadataRedirect !== undefined) {
        res.writeHead(302, { location: options.metadataRedirect }).end();
        return true;
      }
      if (path === metadataPath) {
        json(res, 200, {
          resource: mcpUrl,
          authorization_servers: options.authorizationServers ?? [issuer],
          ...(options.resourceScopes === null
            ? {}
            : { scopes_supported: options.resourceScopes ?? ["mcp"] }),
        });
        return true;
      }
      const [, scheme, token] = /^(Bearer|DPoP) (.+)$/.exec(req.headers.authorization ?? "") ??
        [];
      const jkt = token === undefined ? undefined : bound.get(token);
      const href = new URL(req.url ?? "/", mcpUrl);
      const proven = scheme === "DPoP" && jkt !== undefined &&
        checkProof(req.headers.dpop, req.method!, `${href.origin}${href.pathname}`, jtis, token) ===
          jkt;
      if (proven) requests.push(`dpop ${req.method}`);
      if (
        token !== undefined && tokens.has(token) &&
        (jkt === undefined ? scheme === "Bearer" : proven)
      ) {
        if (options.forbid?.has(token)) {
          res.writeHead(403, {
            "www-authenticate":
              `Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="${
                new URL(mcpUrl).origin
              }${metadataPath}"`,
          }).end();
          return true;
        }
        if (options.echoToken === undefined || req.method !== "POST") return false;
        echo(req, res, token, options.echoToken);
        return true;
      }
      const origin = new URL(mcpUrl).origin;
      res.writeHead(401, {
        "www-authenticate": `Bearer resource_metadata="${origin}${metadataPath}", scope="mcp"`,
        "content-type": "application/json",
      }).end(JSON.stringify({ error: "invalid_token" }));
      return true;
    },
  });
  mcpUrl = mcp.url;
  return {
    mcpUrl,
    issuer,
    tokens,
    revoked,
    requests,
    async close() {
      await mcp.close();
      await asListening.close();
    },
  };
}

/** Run `fn` with a fresh pair started with `options`; the pair closes after, whatever happens. */
export async function withOAuthServers(
  options: OAuthServerOptions,
  fn: (servers: OAuthServers) => Promise<void>,
): Promise<void> {
  const servers = await startOAuthServers(options);
  try {
    await fn(servers);
  } finally {
    await servers.close();
  }
}

/** Plays the user's browser: follows an authorization URL to its redirect (the server approves). */
export async function approve(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  return new URL(response.headers.get("location")!);
}

/** POST an `initialize` to `mcpUrl` through `authed` (an authenticating fetch); its HTTP status. */
export async function initializeThrough(authed: typeof fetch, mcpUrl: string): Promise<number> {
  const response = await authed(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    }),
  });
  await response.body?.cancel();
  return response.status;
}
