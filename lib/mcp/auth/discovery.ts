/**
 * MCP authorization discovery: the protected-resource metadata (RFC 9728) of an MCP server and
 * the metadata of its authorization server (RFC 8414 or OpenID Connect Discovery), with the
 * well-known URL fallbacks of the MCP authorization spec (2025-11-25), validated.
 *
 * @module
 */

// Long because: two discoveries with the spec's well-known fallbacks (RFC 9728, RFC 8414 or OpenID
// Connect) and the checks of every field a server returns; over a quarter is JSDoc.

import { OAuthError } from "./errors.ts";
import { guardFetch } from "./_guarded_fetch.ts";
import { allowedOAuthUrl, requireOAuthUrl, shownUrl } from "./_oauth_url.ts";
import { noteRefused } from "./_refused.ts";

/** Protected-resource metadata (RFC 9728), the fields an MCP client uses. */
export interface ResourceMetadata {
  /** The resource identifier: the value of `resource` on authorize and token requests. */
  resource: string;
  /** The authorization servers' issuer identifiers. */
  authorization_servers?: string[];
  /** Scopes the resource knows. */
  scopes_supported?: string[];
}

/** Authorization-server metadata (RFC 8414), the fields an MCP client uses. */
export interface AuthorizationServerMetadata {
  /** The issuer identifier, equal to the one discovery started from. */
  issuer: string;
  /** The authorization endpoint. */
  authorization_endpoint?: string;
  /** The token endpoint. */
  token_endpoint?: string;
  /** The dynamic client registration endpoint (RFC 7591). */
  registration_endpoint?: string;
  /** Scopes the server knows. */
  scopes_supported?: string[];
  /** PKCE methods; MCP requires `S256`. */
  code_challenge_methods_supported?: string[];
  /** Token endpoint client authentication methods. */
  token_endpoint_auth_methods_supported?: string[];
  /** Whether the authorization response carries `iss` (RFC 9207). */
  authorization_response_iss_parameter_supported?: boolean;
  /** Whether client ID metadata documents are accepted as `client_id`. */
  client_id_metadata_document_supported?: boolean;
  /** Other fields. */
  [key: string]: unknown;
}

/** What discovery found for an MCP server. */
export interface Discovery {
  /** The protected-resource metadata; absent for a 2025-03-26 server that has none. */
  resource?: ResourceMetadata;
  /** The authorization server's validated metadata. */
  server: AuthorizationServerMetadata;
  /** No metadata was found: `server` holds the 2025-03-26 default endpoints. */
  synthesized?: boolean;
}

/** Options of the discovery functions. */
export interface DiscoveryOptions {
  /** The fetch to use. */
  fetch?: typeof fetch;
  /** The server name for messages. */
  server?: string;
  /** Timeout of each request in ms (default 10 000). */
  timeoutMs?: number;
  /** Cancels discovery. */
  signal?: AbortSignal;
  /** The byte cap of one metadata answer (default 1 MiB); past it, `ResponseTooLargeError`. */
  maxBytes?: number;
}

/**
 * Whether `url` may be used for OAuth: https, or plain http on a loopback host only
 * (`localhost`, 127.0.0.0/8, `[::1]`). Discovery applies it to every metadata URL and redirect
 * hop, and to every endpoint an authorization server's metadata names: a sign-in endpoint
 * (authorization, token, registration) that fails it fails discovery (`insecure_url`); any other
 * (revocation, introspection, `jwks_uri`, …) is left out of the metadata, so nothing goes there.
 *
 * @example
 * ```ts
 * import { isAllowedOAuthUrl } from "@skillmux/core/oauth";
 * console.log(isAllowedOAuthUrl(new URL("http://127.0.0.1:8080/token"))); // true
 * console.log(isAllowedOAuthUrl(new URL("http://auth.example.com/token"))); // false
 * ```
 */
export function isAllowedOAuthUrl(url: URL): boolean {
  return allowedOAuthUrl(url);
}

function wellKnown(base: URL, name: string, appended = false): URL {
  const path = base.pathname.replace(/\/+$/, "");
  return new URL(appended ? `${path}/.well-known/${name}` : `/.well-known/${name}${path}`, base);
}

async function getJson(
  url: URL,
  options: DiscoveryOptions,
): Promise<Record<string, unknown> | undefined> {
  const name = options.server ?? url.origin;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  // Every hop checked (https or loopback http, and the caller's URL policy), the answer capped.
  const get = guardFetch(options.fetch ?? ((input, init) => fetch(input, init)), {
    server: options.server,
    maxBytes: options.maxBytes,
  });
  let response: Response;
  try {
    response = await get(url, { headers: { Accept: "application/json" }, signal });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const refused = ["PolicyError", "OAuthError", "ResponseTooLargeError"];
    if (refused.includes((error as Error)?.name)) throw error; // a rule refused it
    throw new OAuthError("metadata_not_found", `${name}: GET ${url.href} failed`, {
      server: options.server,
      cause: error,
    });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  try {
    const json = await response.json();
    if (json !== null && typeof json === "object" && !Array.isArray(json)) return json;
  } catch { /* reported below */ }
  throw new OAuthError("invalid_metadata", `${name}: ${url.href} did not answer a JSON object`, {
    server: options.server,
  });
}

function stringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/**
 * The protected-resource metadata of the MCP server at `serverUrl`: from `metadataUrl` (the
 * `resource_metadata` of a `WWW-Authenticate` challenge) when given, else from
 * `/.well-known/oauth-protected-resource/<path>` and then the root
 * `/.well-known/oauth-protected-resource`. `undefined` when there is none. The document's
 * `resource` must be the server URL or a prefix of it on the same origin
 * (`OAuthError` `resource_mismatch` otherwise).
 *
 * @example
 * ```ts
 * import { discoverResourceMetadata } from "@skillmux/core/oauth";
 * const prm = await discoverResourceMetadata(new URL("https://mcp.example.com/mcp"));
 * console.log(prm?.authorization_servers);
 * ```
 */
export async function discoverResourceMetadata(
  serverUrl: URL,
  options: DiscoveryOptions & { metadataUrl?: string } = {},
): Promise<ResourceMetadata | undefined> {
  const name = options.server ?? serverUrl.origin;
  const candidates = options.metadataUrl !== undefined
    ? [new URL(options.metadataUrl, serverUrl)]
    : serverUrl.pathname.replace(/\/+$/, "") === ""
    ? [wellKnown(serverUrl, "oauth-protected-resource")]
    : [
      wellKnown(serverUrl, "oauth-protected-resource"),
      new URL("/.well-known/oauth-protected-resource", serverUrl),
    ];
  for (const url of candidates) {
    const json = await getJson(url, options);
    if (json === undefined) continue;
    if (typeof json.resource !== "string") {
      throw new OAuthError("invalid_metadata", `${name}: ${url.href}: "resource" is missing`, {
        server: options.server,
      });
    }
    if (json.authorization_servers !== undefined && !stringArray(json.authorization_servers)) {
      throw new OAuthError(
        "invalid_metadata",
        `${name}: ${url.href}: "authorization_servers" must be an array of URLs`,
        { server: options.server },
      );
    }
    if (!resourceCovers(json.resource, serverUrl)) {
      throw new OAuthError(
        "resource_mismatch",
        `${name}: the protected-resource metadata is for ${json.resource}, not ${serverUrl.href}`,
        { server: options.server },
      );
    }
    return {
      resource: json.resource,
      authorization_servers: json.authorization_servers as string[] | undefined,
      scopes_supported: stringArray(json.scopes_supported) ? json.scopes_supported : undefined,
    };
  }
  return undefined;
}

/** Whether resource identifier `resource` covers `serverUrl` (same origin, path prefix). */
function resourceCovers(resource: string, serverUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== serverUrl.origin) return false;
  const prefix = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`;
  return serverUrl.pathname === url.pathname || `${serverUrl.pathname}/`.startsWith(prefix);
}

/**
 * The metadata URLs tried for `issuer`, in the MCP spec's order: with a path,
 * `/.well-known/oauth-authorization-server/<path>`, `/.well-known/openid-configuration/<path>`,
 * `<path>/.well-known/openid-configuration`; without, `oauth-authorization-server` then
 * `openid-configuration`.
 *
 * @example
 * ```ts
 * import { authorizationServerMetadataUrls } from "@skillmux/core/oauth";
 * console.log(authorizationServerMetadataUrls(new URL("https://auth.example.com/tenant1")).map(String));
 * ```
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  if (issuer.pathname.replace(/\/+$/, "") === "") {
    return [
      wellKnown(issuer, "oauth-authorization-server"),
      wellKnown(issuer, "openid-configuration"),
    ];
  }
  return [
    wellKnown(issuer, "oauth-authorization-server"),
    wellKnown(issuer, "openid-configuration"),
    wellKnown(issuer, "openid-configuration", true),
  ];
}

/**
 * The validated metadata of the authorization server `issuer`, or `undefined` when no
 * well-known URL answers. Throws `OAuthError`: `issuer_mismatch` when the document's `issuer` is
 * not the string `issuer` exactly (RFC 8414), `pkce_unsupported` when `code_challenge_methods_supported` lacks `S256`,
 * `invalid_metadata` for a document without endpoints, `insecure_url` when the authorization,
 * token or registration endpoint is not https (or loopback http). Other endpoints that are not
 * a URL or not https (a `revocation_endpoint` of `http://auth.example.com/revoke`) are left out
 * of the returned metadata: nothing is sent there, and sign-in still works.
 *
 * @example
 * ```ts
 * import { discoverAuthorizationServer } from "@skillmux/core/oauth";
 * const as = await discoverAuthorizationServer("https://auth.example.com");
 * console.log(as?.token_endpoint);
 * ```
 */
export async function discoverAuthorizationServer(
  issuer: string,
  options: DiscoveryOptions = {},
): Promise<AuthorizationServerMetadata | undefined> {
  let base: URL;
  try {
    base = new URL(issuer);
  } catch {
    throw new OAuthError("invalid_metadata", `${options.server}: "${issuer}" is not a URL`, {
      server: options.server,
    });
  }
  for (const url of authorizationServerMetadataUrls(base)) {
    const json = await getJson(url, options);
    if (json === undefined) continue;
    return validateServerMetadata(json, issuer, base, url, options.server);
  }
  return undefined;
}

/** The endpoints a sign-in opens or sends to: one that is not https (or loopback http) fails it. */
const SIGN_IN_ENDPOINTS = ["authorization_endpoint", "token_endpoint", "registration_endpoint"];

/**
 * The other metadata fields that name a URL the client may send something to. One that is not a
 * URL, or not https (or loopback http), does not fail discovery: it is left out of the metadata,
 * so nothing is ever sent there, and why is kept (see `refusedEndpoint`); sign-out says it.
 */
const OTHER_ENDPOINTS = [
  "revocation_endpoint",
  "introspection_endpoint",
  "userinfo_endpoint",
  "jwks_uri",
  "pushed_authorization_request_endpoint",
  "device_authorization_endpoint",
  "end_session_endpoint",
];

function validateServerMetadata(
  json: Record<string, unknown>,
  expected: string,
  issuer: URL,
  from: URL,
  server: string | undefined,
): AuthorizationServerMetadata {
  const name = server ?? issuer.origin;
  // RFC 8414 §3.3: identical to the issuer the metadata URL was built from — a string
  // comparison, so `HTTP://…`, a leading-zero port or an added trailing `/` is another issuer.
  if (json.issuer !== expected) {
    throw new OAuthError(
      "issuer_mismatch",
      `${name}: the metadata at ${from.href} names issuer ${
        JSON.stringify(String(json.issuer).slice(0, 200))
      }, expected exactly ${JSON.stringify(expected)} (RFC 8414: identical strings)`,
      { server },
    );
  }
  for (const field of [...SIGN_IN_ENDPOINTS, ...OTHER_ENDPOINTS]) {
    const value = json[field];
    if (value === undefined) continue;
    let url: URL | undefined;
    try {
      url = typeof value === "string" ? new URL(value) : undefined;
    } catch { /* reported below */ }
    const signIn = SIGN_IN_ENDPOINTS.includes(field);
    if (url === undefined) {
      if (!signIn) {
        delete json[field];
        noteRefused(json, field, `the authorization server's ${field} is not a URL`);
        continue;
      }
      throw new OAuthError("invalid_metadata", `${name}: ${from.href}: "${field}" is not a URL`, {
        server,
      });
    }
    if (!signIn && !allowedOAuthUrl(url)) {
      delete json[field];
      noteRefused(
        json,
        field,
        `the authorization server's ${field} ${JSON.stringify(shownUrl(url))} is not https ` +
          `(OAuth needs https, or http on a loopback host)`,
      );
      continue;
    }
    // Nothing is built on an endpoint that is not https (or loopback http): no javascript:.
    requireOAuthUrl(url, server, `the ${field} of the authorization server ${issuer.href}`);
  }
  const methods = json.code_challenge_methods_supported;
  if (!stringArray(methods) || !methods.includes("S256")) {
    throw new OAuthError(
      "pkce_unsupported",
      `${name}: the authorization server ${issuer.href} does not list S256 in ` +
        `code_challenge_methods_supported; refusing to sign in without PKCE`,
      { server },
    );
  }
  return json as AuthorizationServerMetadata;
}

/**
 * Discovery for an MCP server: its protected-resource metadata, then its first authorization
 * server's metadata. A server without protected-resource metadata (2025-03-26) is its own
 * authorization server, with `/authorize`, `/token` and `/register` on its origin when it
 * publishes no metadata either.
 *
 * @example
 * ```ts
 * import { discoverAuthorization } from "@skillmux/core/oauth";
 * const { resource, server } = await discoverAuthorization(new URL("https://mcp.example.com/mcp"));
 * console.log(resource?.resource, server.issuer);
 * ```
 */
export async function discoverAuthorization(
  serverUrl: URL,
  options: DiscoveryOptions & { metadataUrl?: string } = {},
): Promise<Discovery> {
  const name = options.server ?? serverUrl.origin;
  const resource = await discoverResourceMetadata(serverUrl, options);
  const issuer = resource?.authorization_servers?.[0];
  if (resource !== undefined && issuer === undefined) {
    throw new OAuthError(
      "invalid_metadata",
      `${name}: the protected-resource metadata lists no authorization server`,
      { server: options.server },
    );
  }
  const server = await discoverAuthorizationServer(issuer ?? serverUrl.origin, options);
  if (server !== undefined) return { resource, server };
  if (resource !== undefined) {
    throw new OAuthError(
      "metadata_not_found",
      `${name}: the authorization server ${issuer} publishes no metadata`,
      { server: options.server },
    );
  }
  const origin = serverUrl.origin;
  return {
    synthesized: true,
    server: {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      code_challenge_methods_supported: ["S256"],
    },
  };
}
