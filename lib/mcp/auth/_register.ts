// Private: which client to use at an authorization server, in the MCP spec's order — a
// pre-registered client, a client ID metadata document, dynamic client registration.

import { OAuthError } from "./errors.ts";
import type { AuthorizationServerMetadata } from "./discovery.ts";
import type { AuthOptions, OAuthClientRecord } from "./types.ts";
import { loadOAuth, type OAuth, requestOptions } from "./_oauth.ts";

const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\//;

/** `native` for loopback and custom-scheme redirects (CLIs, desktop apps), `web` otherwise. */
export function applicationType(redirectUri: string): "native" | "web" {
  return LOOPBACK.test(redirectUri) || !/^https?:/.test(redirectUri) ? "native" : "web";
}

/** A client ID metadata document URL: https, with a path (the document's `client_id`). */
function isMetadataDocumentUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.pathname !== "/" && url.hash === "";
  } catch {
    return false;
  }
}

/**
 * The client for `as`, registered there (its `issuer`): the configured one, `known` when it is
 * registered at `as`, else a client metadata document or a new registration — never a client of
 * another issuer.
 */
export async function ensureClient(
  as: AuthorizationServerMetadata,
  options: AuthOptions,
  known: OAuthClientRecord | undefined,
  ctx: { fetch: typeof fetch; server: string; signal?: AbortSignal },
): Promise<OAuthClientRecord> {
  if (options.clientId !== undefined) {
    return {
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      kind: "pre-registered",
      issuer: as.issuer,
    };
  }
  if (known !== undefined && (known.issuer === undefined || known.issuer === as.issuer)) {
    return known;
  }
  if (
    options.clientMetadataUrl !== undefined && !isMetadataDocumentUrl(options.clientMetadataUrl)
  ) {
    throw new OAuthError(
      "no_client",
      `${ctx.server}: auth.clientMetadataUrl must be an https URL with a path, not ` +
        `"${options.clientMetadataUrl}"`,
      { server: ctx.server },
    );
  }
  if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported) {
    return {
      clientId: options.clientMetadataUrl,
      tokenEndpointAuthMethod: "none",
      kind: "metadata-document",
      issuer: as.issuer,
    };
  }
  if (as.registration_endpoint === undefined) {
    throw new OAuthError(
      "no_client",
      options.clientMetadataUrl !== undefined
        ? `${ctx.server}: the authorization server ${as.issuer} accepts neither client metadata ` +
          `documents (auth.clientMetadataUrl is set) nor dynamic registration; configure a ` +
          `pre-registered client id (auth.clientId)`
        : `${ctx.server}: the authorization server ${as.issuer} offers no dynamic registration; ` +
          `configure a pre-registered client id (auth.clientId) or a client metadata URL ` +
          `(auth.clientMetadataUrl)`,
      { server: ctx.server },
    );
  }
  const redirectUri = options.redirectUri;
  const grants = ["authorization_code", "refresh_token"];
  const metadata: Record<string, string | string[]> = {
    client_name: options.clientName ?? "skillmux",
    redirect_uris: redirectUri ? [redirectUri] : [],
    grant_types: grants,
    response_types: ["code"],
    application_type: applicationType(redirectUri ?? "http://127.0.0.1/"),
  };
  const supported = as.token_endpoint_auth_methods_supported;
  if (supported !== undefined && !supported.includes("none")) {
    metadata.token_endpoint_auth_method = supported.includes("client_secret_basic")
      ? "client_secret_basic"
      : supported[0];
  } else {
    metadata.token_endpoint_auth_method = "none";
  }
  const oauth = await loadOAuth();
  let registered: Record<string, unknown> | undefined;
  let problem = "";
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as as OAuth.AuthorizationServer,
      metadata,
      requestOptions(oauth, ctx.fetch, as.registration_endpoint, ctx.signal),
    );
    // Parsed here rather than by oauth4webapi: many servers omit client_secret_expires_at.
    const body = await response.text();
    if (response.status !== 201 && response.status !== 200) {
      problem = ` (HTTP ${response.status})`;
    } else {
      const json = JSON.parse(body);
      if (typeof json?.client_id === "string") registered = json;
      else problem = ": the answer has no client_id";
    }
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "PolicyError" || name === "OAuthError" || name === "ResponseTooLargeError") {
      throw error; // a rule refused the URL or the answer
    }
    problem = error instanceof SyntaxError ? ": the answer is not JSON" : ": network error";
  }
  if (registered === undefined) {
    throw new OAuthError(
      "registration_failed",
      `${ctx.server}: dynamic client registration at ${as.registration_endpoint} failed${problem}`,
      { server: ctx.server },
    );
  }
  const method = registered.token_endpoint_auth_method;
  const client: OAuthClientRecord = {
    clientId: registered.client_id as string,
    kind: "dynamic",
    issuer: as.issuer,
  };
  if (typeof registered.client_secret === "string") client.clientSecret = registered.client_secret;
  if (method === "client_secret_basic" || method === "client_secret_post" || method === "none") {
    client.tokenEndpointAuthMethod = method;
  }
  return client;
}
