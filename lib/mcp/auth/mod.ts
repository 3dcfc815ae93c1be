/**
 * OAuth 2.1 for MCP servers (the MCP authorization spec, 2025-11-25): discovery, registration,
 * the authorization code flow with PKCE, refresh, step-up, client credentials, and a store.
 * `connect()` loads this lazily when a server has the `auth` option.
 *
 * @module
 */

export { type BearerChallenge, parseBearerChallenge } from "./challenge.ts";
export {
  type AuthorizationServerMetadata,
  authorizationServerMetadataUrls,
  discoverAuthorization,
  discoverAuthorizationServer,
  discoverResourceMetadata,
  type Discovery,
  type DiscoveryOptions,
  isAllowedOAuthUrl,
  type ResourceMetadata,
} from "./discovery.ts";
export { isOAuthError, OAuthError, type OAuthErrorCode } from "./errors.ts";
export { createAuthFetch } from "./fetch.ts";
export { OAuthSession } from "./session.ts";
export { createMemoryOAuthStore, createOAuthStore, type OAuthStoreOptions } from "./store.ts";
export type {
  AuthOptions,
  ClientCredentialsOptions,
  DPoPKey,
  OAuthClientRecord,
  OAuthRecord,
  OAuthSessionOptions,
  OAuthStore,
  OAuthTokenRecord,
  SignOutOptions,
  SignOutResult,
  TokenRequest,
} from "./types.ts";
