/**
 * Types of the optional semantic stage ({@linkcode createSemanticRanker}).
 *
 * @module
 */

import type { Storage } from "../../storage/types.ts";
import type { EntryKind, RankedEntry } from "./types.ts";

/**
 * Embeds texts: one vector per text, in order, all of one length. Any function will do (a local
 * model, a provider SDK); {@linkcode createEmbeddingEndpoint} speaks the OpenAI-compatible
 * `/v1/embeddings` that Ollama, llama.cpp's server, LM Studio, TEI and OpenAI serve.
 */
export type Embedder = (
  texts: readonly string[],
  options: { signal: AbortSignal },
) => Promise<number[][]>;

/**
 * Scores documents against a query, higher is better: one score per document, in order.
 * {@linkcode createRerankEndpoint} speaks `/rerank` as TEI, Jina and Cohere do.
 */
export type Reranker = (
  query: string,
  documents: readonly string[],
  options: { signal: AbortSignal },
) => Promise<number[]>;

/** How to reach an HTTP endpoint of the semantic stage. */
export interface EndpointOptions {
  /** The full URL, e.g. `http://127.0.0.1:11434/v1/embeddings` or `http://127.0.0.1:8080/rerank`. */
  url: string;
  /** The model name sent with each request (TEI serves one model and ignores it). */
  model?: string;
  /** Sent as `Authorization: Bearer <key>`; never in errors. */
  apiKey?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
  /** Retries on network errors, 408, 429 and 5xx (default 1). */
  retries?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

/** Options of {@linkcode createRerankEndpoint}. */
export interface RerankEndpointOptions extends EndpointOptions {
  /**
   * The wire format: `"tei"` (`{query, texts}` → `[{index, score}]`, Hugging Face's
   * text-embeddings-inference) or `"cohere"` (`{model, query, documents}` →
   * `{results: [{index, relevance_score}]}`, also Jina's and most gateways'). Default `"tei"`.
   */
  protocol?: "tei" | "cohere";
}

/** Options of {@linkcode createSemanticRanker}. */
export interface SemanticRankerOptions {
  /** The embedder: a function, or an endpoint made by {@linkcode createEmbeddingEndpoint}. */
  embed: Embedder;
  /**
   * Names the embedder's vectors in `storage` (default `"embedder"`): give each model its own, so
   * vectors of one model are never compared with another's.
   */
  model?: string;
  /** An optional second stage: the best fused hits are scored again and reordered. */
  rerank?: Reranker;
  /** Where entry vectors are kept between processes, keyed by what was embedded (default: memory only). */
  storage?: Storage;
  /** Texts per embedding request (default 64). */
  batchSize?: number;
  /** How many hits of each ranking are fused (default 50). */
  pool?: number;
  /** How many of the best fused hits the reranker orders (default 20). */
  rerankPool?: number;
  /** Reciprocal rank fusion's constant (default 60). */
  k?: number;
  /** The keyword ranking's share in the fusion, the vectors' being 1 (default 1). */
  keywordWeight?: number;
}

/** Options of {@linkcode SemanticRanker.rank}. */
export interface SemanticRankOptions {
  /** Most hits (default 10). */
  limit?: number;
  /** Only these kinds (default all). */
  kinds?: readonly EntryKind[];
  /** Cancels the call: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** One hit of a semantic ranking. */
export interface SemanticHit extends RankedEntry {
  /** Its place in the keyword ranking (1 = first), when it is in the fused pool. */
  keywordRank?: number;
  /** Cosine similarity of its vector and the query's, when vectors were compared. */
  similarity?: number;
  /** The reranker's score, when it was reranked. */
  rerankScore?: number;
}

/** What {@linkcode SemanticRanker.rank} found, and how. */
export interface SemanticRanking {
  /** Best first. */
  hits: SemanticHit[];
  /**
   * `"keyword"` when the vectors could not be had (see `diagnostics`), `"fused"` when keyword
   * and vector rankings were fused, `"reranked"` when the reranker also ordered the best.
   */
  mode: "keyword" | "fused" | "reranked";
  /** What failed, in sentences (an endpoint down, a timeout, an answer of the wrong shape). */
  diagnostics: string[];
}

/** A catalog ranked by keywords and vectors together. */
export interface SemanticRanker {
  /** Rank the catalog's entries for `query` (see {@linkcode createSemanticRanker}). */
  rank(query: string, options?: SemanticRankOptions): Promise<SemanticRanking>;
}
