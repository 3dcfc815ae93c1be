/**
 * The error of the LLM adapters: one class with a `code`.
 *
 * @module
 */

/**
 * Why an LLM call failed, as a stable string to branch on:
 * - `http`: the provider answered with an error status (`status`)
 * - `timeout`: it did not answer within the adapter's `timeoutMs`
 * - `network`: it could not be reached
 * - `too-large`: its answer is over the adapter's read cap
 * - `invalid-response`: its answer is not JSON, or not the shape the provider's API documents
 */
export type LlmErrorCode = "http" | "timeout" | "network" | "too-large" | "invalid-response";

/**
 * A failed LLM call: why (`code`), the provider, the HTTP status when there was one, and the
 * provider's own message (with any key redacted).
 *
 * @example
 * ```ts
 * import { createOpenAiModel, isLlmError } from "@skillmux/core/llm";
 * const llm = createOpenAiModel({ baseUrl: "http://127.0.0.1:9/v1", model: "m", retries: 0 });
 * try {
 *   await llm([{ role: "user", content: "hi" }], { signal: AbortSignal.timeout(5_000) });
 * } catch (error) {
 *   if (isLlmError(error)) console.log(error.code, error.provider, error.status); // "network" "openai" undefined
 * }
 * ```
 */
export class LlmError extends Error {
  /** Why it failed (see {@linkcode LlmErrorCode}). */
  readonly code: LlmErrorCode;
  /** `openai` (any OpenAI-compatible server) or `anthropic`. */
  readonly provider: string;
  /** The HTTP status, when the server answered. */
  readonly status?: number;

  /**
   * Creates the error.
   *
   * @param message What happened.
   * @param options Why, the provider, the status and the cause.
   */
  constructor(
    message: string,
    options: { code: LlmErrorCode; provider: string; status?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LlmError";
    this.code = options.code;
    this.provider = options.provider;
    this.status = options.status;
  }
}

/**
 * Whether `error` is an {@linkcode LlmError} (checked by name, across copies of the library).
 *
 * @example
 * ```ts
 * import { isLlmError, LlmError } from "@skillmux/core/llm";
 * console.log(isLlmError(new LlmError("x", { code: "http", provider: "openai", status: 500 }))); // true
 * ```
 */
export function isLlmError(error: unknown): error is LlmError {
  return error instanceof Error && error.name === "LlmError";
}
