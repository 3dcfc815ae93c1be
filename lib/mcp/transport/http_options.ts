/**
 * Options shared by the HTTP transports ({@linkcode createStreamableHttpTransport}
 * in `streamable_http.ts`, {@linkcode createLegacySseTransport} in `legacy_sse.ts`).
 *
 * @module
 */

/** Options of the HTTP transports. Every field is optional. */
export interface HttpTransportOptions {
  /** The `fetch` to use (tests inject one). Default: `globalThis.fetch`. */
  fetch?: typeof fetch;
  /**
   * The largest response body accepted, in bytes, counted while streaming;
   * past it the body is cancelled and the request rejects with
   * `ResponseTooLargeError`. For the legacy SSE transport the cap applies to
   * each message. Default 4 MiB.
   */
  maxResponseBytes?: number;
  /** Retries of an idempotent request (never `tools/call`) on network errors, 429, 502, 503, 504. Default 2. */
  retries?: number;
  /** The base of the exponential backoff between retries, in milliseconds. Default 300. */
  retryDelayMs?: number;
  /** The longest wait a server's `Retry-After` (or SSE `retry:`) can impose, in milliseconds. Default 10 000. */
  maxRetryAfterMs?: number;
  /** An SSE response stream silent for this long fails with `StreamEndedError`. Default 30 000. */
  stallTimeoutMs?: number;
  /** Consecutive failed requests that open the circuit breaker. Default 5. */
  circuitThreshold?: number;
  /** How long the open circuit refuses calls before one probe, in milliseconds. Default 30 000. */
  circuitCooldownMs?: number;
  /** Diagnostic lines (retries, ignored messages, redirects); secrets are already redacted. */
  log?: (line: string) => void;
}
