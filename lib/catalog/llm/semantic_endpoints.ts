/**
 * HTTP endpoints of the optional semantic stage: OpenAI-compatible
 * `/v1/embeddings`, and `/rerank` as TEI, Jina and Cohere speak it.
 *
 * @module
 */

import type {
  Embedder,
  EndpointOptions,
  RerankEndpointOptions,
  Reranker,
} from "../model/semantic_types.ts";

/** `postJson` of the LLM adapters' HTTP, loaded at the first call (ky stays out of a page's first load). */
const postJson: typeof import("./_llm_http.ts").postJson = async (...args) =>
  (await import("./_llm_http.ts")).postJson(...args);

/** The headers and the HTTP options `postJson` reads. */
function http(options: EndpointOptions) {
  return {
    headers: (options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) as Record<
      string,
      string
    >,
    settings: {
      model: options.model ?? "",
      apiKey: options.apiKey,
      headers: options.headers,
      timeoutMs: options.timeoutMs ?? 30_000,
      retries: options.retries ?? 1,
      maxResponseBytes: 64 * 1024 * 1024,
      fetch: options.fetch,
    },
  };
}

const isVector = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number" && Number.isFinite(x));

/**
 * An {@linkcode Embedder} over an OpenAI-compatible embeddings endpoint: `POST {model, input}`,
 * answered with `{data: [{index, embedding}]}`. Ollama, llama.cpp's server (`--embeddings`),
 * LM Studio, TEI and OpenAI all serve it. An answer of the wrong shape (a missing index, vectors
 * of different lengths) is refused with an error naming what was wrong.
 *
 * @example
 * ```ts
 * import { createEmbeddingEndpoint } from "@skillmux/core/llm";
 * const embed = createEmbeddingEndpoint({
 *   url: "http://127.0.0.1:11434/v1/embeddings",
 *   model: "nomic-embed-text",
 * });
 * console.log(typeof embed); // "function"
 * ```
 */
export function createEmbeddingEndpoint(options: EndpointOptions): Embedder {
  const { headers, settings } = http(options);
  return async (texts, { signal }) => {
    if (texts.length === 0) return [];
    const body = { ...(options.model ? { model: options.model } : {}), input: [...texts] };
    const answer = await postJson("embeddings", options.url, headers, body, settings, signal);
    const data = (answer as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.length !== texts.length) {
      throw new TypeError(
        `embeddings: expected "data" with ${texts.length} vectors, got ${
          Array.isArray(data) ? data.length : typeof data
        }`,
      );
    }
    const out: number[][] = new Array(texts.length);
    data.forEach((row: { index?: unknown; embedding?: unknown }, i) => {
      const at = typeof row?.index === "number" ? row.index : i;
      if (!Number.isInteger(at) || at < 0 || at >= texts.length || out[at]) {
        throw new TypeError(`embeddings: data[${i}] has a bad or repeated "index"`);
      }
      if (!isVector(row.embedding)) {
        throw new TypeError(`embeddings: data[${i}].embedding is not a list of numbers`);
      }
      out[at] = row.embedding;
    });
    if (out.some((v) => v.length !== out[0].length)) {
      throw new TypeError("embeddings: the vectors are not all of one length");
    }
    return out;
  };
}

/**
 * A {@linkcode Reranker} over a `/rerank` endpoint. `protocol: "tei"` (the default) sends
 * `{query, texts}` and reads `[{index, score}]` (Hugging Face text-embeddings-inference);
 * `protocol: "cohere"` sends `{model, query, documents}` and reads
 * `{results: [{index, relevance_score}]}` (Cohere, Jina and gateways that copy them). A document
 * the answer leaves out scores lowest.
 *
 * @example
 * ```ts
 * import { createRerankEndpoint } from "@skillmux/core/llm";
 * const rerank = createRerankEndpoint({ url: "http://127.0.0.1:8080/rerank" });
 * console.log(typeof rerank); // "function"
 * ```
 */
export function createRerankEndpoint(options: RerankEndpointOptions): Reranker {
  const { headers, settings } = http(options);
  const cohere = options.protocol === "cohere";
  return async (query, documents, { signal }) => {
    if (documents.length === 0) return [];
    const body = cohere
      ? { ...(options.model ? { model: options.model } : {}), query, documents: [...documents] }
      : { query, texts: [...documents], raw_scores: false };
    const answer = await postJson("rerank", options.url, headers, body, settings, signal);
    const rows = cohere ? (answer as { results?: unknown })?.results : answer;
    if (!Array.isArray(rows)) {
      throw new TypeError(`rerank: expected ${cohere ? '"results", a list' : "a list"} of scores`);
    }
    const scores = new Array<number>(documents.length).fill(-Infinity);
    for (const [i, row] of rows.entries()) {
      const r = row as { index?: unknown; score?: unknown; relevance_score?: unknown };
      const score = cohere ? r.relevance_score : r.score;
      if (
        typeof r.index !== "number" || !Number.isInteger(r.index) || r.index < 0 ||
        r.index >= documents.length || typeof score !== "number" || !Number.isFinite(score)
      ) throw new TypeError(`rerank: row ${i} needs an "index" and a numeric score`);
      scores[r.index] = score;
    }
    return scores;
  };
}
