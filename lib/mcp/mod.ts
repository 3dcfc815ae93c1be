/**
 * The MCP client: Streamable HTTP (JSON or SSE), legacy HTTP+SSE, stdio
 * (Deno/Node, also at `@skillmux/core/stdio`), URL and header policy, and a
 * registry of servers.
 *
 * @module
 */

export { isOAuthError, OAuthError, type OAuthErrorCode } from "./auth/errors.ts";
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
} from "./auth/types.ts";
export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./client/_protocol.ts";
export {
  connect,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_PAGES,
  DEFAULT_MAX_TOTAL_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from "./client/client.ts";
export type {
  ClientCapabilities,
  ClientHandlers,
  CreateMessageParams,
  CreateMessageResult,
  ElicitField,
  ElicitRequestParams,
  ElicitResult,
  Root,
  ServerRequestContext,
} from "./client/client_handlers.ts";
export type {
  CacheHintInfo,
  CallOptions,
  McpClient,
  RequestOptions,
  TaskInfo,
  TaskStatus,
} from "./client/client_types.ts";
export type { ConnectOptions, ServerHint, StdioConnector } from "./client/connect_options.ts";
export {
  CircuitOpenError,
  HttpError,
  isMcpError,
  McpError,
  type McpErrorCode,
  type McpErrorName,
  type McpErrorOptions,
  type McpErrorTypes,
  NetworkError,
  PolicyError,
  ProtocolError,
  ResponseTooLargeError,
  RpcError,
  SessionExpiredError,
  SkillVerificationError,
  type SkillVerificationReason,
  StreamEndedError,
  TimeoutError,
  UnsupportedProtocolVersionError,
} from "./protocol/errors.ts";
export type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Implementation,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  McpServerConfig,
  Progress,
  Prompt,
  Resource,
  ResourceContents,
  ResourceTemplate,
  ServerCapabilities,
  ServerOrigin,
  Tool,
  TransportKind,
} from "./protocol/types.ts";
export {
  nameFromUrl,
  parseMcpServersJson,
  parseServersToml,
  toMcpServersJson,
  toServersToml,
} from "./registry/config_formats.ts";
export { discoverServer, type ServerDiscovery } from "./registry/discover.ts";
export {
  ConflictError,
  ForbiddenError,
  isConflictError,
  isForbiddenError,
} from "./registry/errors.ts";
export {
  applyServerPatch,
  checkServerDescription,
  MAX_DESCRIPTION_LENGTH,
  newServerId,
  patchChangesReach,
  type RegisteredServer,
  type ServerPatch,
  type ServerScope,
  type ServerStatus,
} from "./registry/records.ts";
export { createServerRegistry, type ServerRegistryOptions } from "./registry/registry.ts";
export {
  type AddServerOptions,
  type CheckServersOptions,
  DEFAULT_STDIO_CONCURRENCY,
  type PingFailure,
  type PingResult,
  type RefreshResult,
  type RegistryChange,
  type ServerRegistry,
  type UpdateServerOptions,
} from "./registry/types.ts";
export { isSecretKeyError, SecretKeyError } from "./sealing/errors.ts";
export {
  createSecretBox,
  isSealedSecret,
  type SecretBox,
  type SecretBoxOptions,
  type SecretKeyMaterial,
  type SecretKeySource,
} from "./sealing/secrets.ts";
export {
  getSkillEntry,
  listSkillEntries,
  loadSkill,
  readSkillFile,
  readSkillFileBytes,
} from "./skills/client.ts";
export {
  MAX_SKILL_BYTES,
  MAX_SKILL_FILES,
  offersSkills,
  SKILLS_EXTENSION,
} from "./skills/extension.ts";
export type {
  LoadedSkill,
  SkillEntry,
  SkillEntryListing,
  SkillFile,
  SkillReadOptions,
} from "./skills/types.ts";
export type { HttpTransportOptions } from "./transport/http_options.ts";
export type {
  McpTransport,
  ServerRequestHandler,
  TransportRequestOptions,
} from "./transport/interface.ts";
export { createLegacySseTransport } from "./transport/legacy_sse.ts";
export { createStreamableHttpTransport } from "./transport/streamable_http.ts";
