// Private: what the client needs from a protocol session, whichever era it speaks. Legacy
// sessions (2025-11-25 and earlier) run the `initialize` handshake (`_session.ts`); modern ones
// (2026-07-28) are stateless and carry version, capabilities and client info in every request's
// `_meta` (`_modern.ts`).

import type { TransportRequestOptions } from "../transport/interface.ts";
import type { Implementation, ServerCapabilities } from "../protocol/types.ts";

/** The modern revision this client speaks. */
export const MODERN_VERSION = "2026-07-28";

/** Legacy revisions, newest first. */
export const LEGACY_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/**
 * The newest protocol revision this client speaks; `connect` asks for it first.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { LATEST_PROTOCOL_VERSION } from "@skillmux/core/mcp";
 * const client = await connect({ name: "local", url: "http://127.0.0.1:3001/mcp" });
 * console.log(client.protocolVersion === LATEST_PROTOCOL_VERSION ? "newest" : "older server");
 * ```
 */
export const LATEST_PROTOCOL_VERSION: string = MODERN_VERSION;

/**
 * Every protocol revision this client speaks, newest first.
 *
 * @example
 * ```ts
 * import { SUPPORTED_PROTOCOL_VERSIONS } from "@skillmux/core/mcp";
 * console.log(SUPPORTED_PROTOCOL_VERSIONS.includes("2024-11-05")); // true
 * ```
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

/** What the server told about itself (initialize result, or `server/discover`). */
export interface SessionInfo {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** A protocol session: one era's way of sending a request. */
export interface ProtocolSession {
  readonly era: "modern" | "legacy";
  readonly info: SessionInfo;
  /** The caching hints of the last result of `method` (modern servers send them). */
  cacheHint(method: string): CacheHint | undefined;
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: TransportRequestOptions,
  ): Promise<Record<string, unknown>>;
}

/** `ttlMs` and `cacheScope` of a cacheable result, with the time it arrived. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: "public" | "private";
  receivedAt: number;
}

/** The hint a result carries, if any (a negative `ttlMs` counts as 0). */
export function cacheHintOf(result: Record<string, unknown>): CacheHint | undefined {
  if (typeof result.ttlMs !== "number") return undefined;
  return {
    ttlMs: Math.max(0, result.ttlMs),
    cacheScope: result.cacheScope === "public" ? "public" : "private",
    receivedAt: Date.now(),
  };
}
