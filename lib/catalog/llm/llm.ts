/**
 * Model adapters over HTTP (`@skillmux/core/llm`): for selection, OpenAI-compatible
 * chat completions (OpenAI, llama.cpp, Ollama, vLLM, …) and the Anthropic
 * Messages API; for the semantic stage, `/v1/embeddings` and `/rerank`
 * endpoints. All on `ky` (loaded on the first call): timeouts, retries with
 * backoff on 429 and 5xx honouring `Retry-After`, and errors ({@linkcode LlmError})
 * that name the provider and the status but never the key. `.` takes any model
 * as a function ({@linkcode SelectModel}, `Embedder`, `Reranker`); this entry
 * is one way to make one, kept off `.` so that an app that brings its own
 * model does not carry `ky`.
 *
 * @module
 */

import type {
  AnthropicModelOptions,
  LlmHttpOptions,
  OpenAiModelOptions,
  SelectModel,
} from "../model/select_types.ts";

export type {
  AnthropicModelOptions,
  LlmHttpOptions,
  OpenAiModelOptions,
} from "../model/select_types.ts";
export type { EndpointOptions, RerankEndpointOptions } from "../model/semantic_types.ts";
export { isLlmError, LlmError, type LlmErrorCode } from "./llm_error.ts";
export { createEmbeddingEndpoint, createRerankEndpoint } from "./semantic_endpoints.ts";

/**
 * A {@linkcode SelectModel} over an OpenAI-compatible `POST /chat/completions`
 * (OpenAI, Azure-style gateways, llama.cpp's server, Ollama, vLLM, LM Studio).
 * Sends `Authorization: Bearer <apiKey>` when a key is given.
 *
 * @example
 * ```ts
 * import { createOpenAiModel } from "@skillmux/core/llm";
 * const llm = createOpenAiModel({ baseUrl: "http://127.0.0.1:11434/v1", model: "qwen2.5:7b" });
 * const text = await llm([{ role: "user", content: "Say OK" }], { signal: AbortSignal.timeout(30_000) });
 * console.log(text);
 * ```
 */
export function createOpenAiModel(options: OpenAiModelOptions): SelectModel {
  checkModel("createOpenAiModel", options);
  return async (messages, call) => (await import("./_openai.ts")).chat(options, messages, call);
}

/**
 * A {@linkcode SelectModel} over the Anthropic Messages API (`POST /v1/messages`,
 * `x-api-key`, `anthropic-version`). System messages become the `system` field.
 *
 * @example
 * ```ts
 * import { createAnthropicModel } from "@skillmux/core/llm";
 * const llm = createAnthropicModel({ apiKey: "sk-ant-…", model: "claude-sonnet-4-5" });
 * const text = await llm([{ role: "user", content: "Say OK" }], { signal: AbortSignal.timeout(30_000) });
 * console.log(text);
 * ```
 */
export function createAnthropicModel(options: AnthropicModelOptions): SelectModel {
  checkModel("createAnthropicModel", options);
  return async (messages, call) => (await import("./_anthropic.ts")).chat(options, messages, call);
}

function checkModel(fn: string, options: LlmHttpOptions): void {
  if (typeof options?.model !== "string" || options.model === "") {
    throw new TypeError(`${fn}: "model" must be a non-empty string`);
  }
  if (options.baseUrl !== undefined && !URL.canParse(options.baseUrl)) {
    throw new TypeError(`${fn}: "baseUrl" must be an absolute URL`);
  }
}
