/**
 * The error of the LLM adapters.
 *
 * @module
 */

/**
 * A failed LLM call: the provider, the HTTP status when there was one, and the
 * provider's own message (with any key redacted).
 *
 * @example
 * ```ts
 * import { createOpenAiModel, isLlmError } from "@skillmux/core/llm";
 * const llm = createOpenAiModel({ baseUrl: "http://127.0.0.1:9/v1", model: "m", retries: 0 });
 * try {
 *   await llm([{ role: "user", content: "hi" }], { signal: AbortSignal.timeout(5_000) });
 * } catch (error) {
 *   if (isLlmError(error)) console.log(error.provider, error.status);
 * }
 * ```
 */
export class LlmError extends Error {
  /** `openai` (any OpenAI-compatible server) or `anthropic`. */
  readonly provider: string;
  /** The HTTP status, when the server answered. */
  readonly status?: number;

  /**
   * Creates the error.
   *
   * @param message What happened.
   * @param options Provider, status and cause.
   */
  constructor(message: string, options: { provider: string; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "LlmError";
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
 * console.log(isLlmError(new LlmError("x", { provider: "openai", status: 500 }))); // true
 * ```
 */
export function isLlmError(error: unknown): error is LlmError {
  return error instanceof Error && error.name === "LlmError";
}
