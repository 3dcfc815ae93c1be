/**
 * The optional semantic stage: keyword ranking fused with an embedder's
 * vectors (reciprocal rank fusion), and optionally a reranker over the best.
 * Its quality is the model's: skillmux ships no model.
 *
 * @module
 */

import type { VectorCache } from "./_vectors.ts";
import type { Catalog, CatalogEntry } from "../model/types.ts";
import type {
  SemanticHit,
  SemanticRanker,
  SemanticRankerOptions,
  SemanticRanking,
  SemanticRankOptions,
} from "../model/semantic_types.ts";

/** Most characters of a query embedded. */
const MAX_QUERY = 8_000;

/** A sentence for a failure of the embedder or the reranker. */
function why(stage: string, error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `${stage} failed (${text.slice(0, 300)}); ranked by keywords alone`;
}

/**
 * Rank `catalog` by keywords and vectors together. Each call ranks by keywords
 * (`catalog.rank`, the ranking every surface shares), embeds the query, compares
 * it with each entry's vector (embedded once per entry text, in batches, kept
 * in `storage` when one is given), and fuses the two rankings by reciprocal
 * rank fusion (`1 / (k + rank)`, summed); a `rerank` function then orders the
 * best `rerankPool` hits. Whatever fails — the endpoint down, a timeout, an
 * answer of the wrong shape — is a diagnostic, and the answer is the keyword
 * ranking (`mode: "keyword"`). `signal` cancels: the call rejects with its
 * reason. Relevance ("nothing fits") stays the keyword evidence's: each hit
 * keeps its `evidence`, 0 for one that only the vectors found.
 *
 * How good the fused ranking is depends wholly on the model: measure it on
 * your own labelled requests (`evaluateSelection`) before relying on it.
 *
 * @example
 * ```ts
 * import { createCatalog } from "@skillmux/core";
 * import { createSemanticRanker } from "@skillmux/core/catalog";
 * // A toy embedder: one dimension per letter (use a real model, e.g. createEmbeddingEndpoint).
 * const embed = (texts: readonly string[]) =>
 *   Promise.resolve(texts.map((t) => {
 *     const v = new Array(26).fill(0);
 *     for (const c of t.toLowerCase()) if (c >= "a" && c <= "z") v[c.charCodeAt(0) - 97]++;
 *     return v;
 *   }));
 * const catalog = await createCatalog({
 *   functions: [
 *     { name: "get_weather", description: "Weather forecast for a city", handler: () => "sunny" },
 *     { name: "send_email", description: "Send an email to a colleague", handler: () => "sent" },
 *   ],
 * });
 * const ranker = createSemanticRanker(catalog, { embed, model: "letters" });
 * const { hits, mode } = await ranker.rank("will it rain in Paris?");
 * console.log(mode, hits.map((h) => h.entry.id));
 * ```
 */
export function createSemanticRanker(
  catalog: Catalog,
  options: SemanticRankerOptions,
): SemanticRanker {
  // The vector machinery loads at the first ranking (it stays out of a page's first load).
  const vectorsModule = import("./_vectors.ts");
  let cache: VectorCache | undefined;
  const batch = Math.max(1, Math.floor(options.batchSize ?? 64));
  const pool = Math.max(1, Math.floor(options.pool ?? 50));
  const rerankPool = Math.max(1, Math.floor(options.rerankPool ?? 20));
  const k = options.k ?? 60;
  const keywordWeight = options.keywordWeight ?? 1;
  return {
    async rank(query: string, rankOptions: SemanticRankOptions = {}): Promise<SemanticRanking> {
      const limit = Math.max(0, Math.floor(rankOptions.limit ?? 10));
      const signal = rankOptions.signal ?? new AbortController().signal;
      signal.throwIfAborted();
      const kinds = rankOptions.kinds;
      const keyword = catalog.rank(query, { limit: Math.max(pool, limit), kinds });
      const diagnostics: string[] = [];
      const asKeyword = (): SemanticRanking => ({
        hits: keyword.slice(0, limit).map((r, i) => ({ ...r, keywordRank: i + 1 })),
        mode: "keyword",
        diagnostics,
      });
      if (typeof query !== "string" || query.trim() === "" || limit === 0) return asKeyword();
      const { cosine, entryText, VectorCache } = await vectorsModule;
      cache ??= new VectorCache(options.model ?? "embedder", options.storage);
      const entries = catalog.entries.filter((e) => !kinds || kinds.includes(e.kind));
      if (entries.length === 0) return asKeyword();
      let similarity: Map<CatalogEntry, number>;
      try {
        const vectors = await cache.vectors(entries.map(entryText), options.embed, batch, signal);
        const [q] = await options.embed([query.slice(0, MAX_QUERY)], { signal });
        if (!Array.isArray(q) || q.length !== vectors[0].length) {
          throw new TypeError("the query's vector is not of the entries' length");
        }
        similarity = new Map(entries.map((e, i) => [e, cosine(q, vectors[i])]));
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        diagnostics.push(why("embedding", error));
        return asKeyword();
      }
      const byVector = [...similarity].sort((a, b) =>
        b[1] - a[1] || (a[0].id < b[0].id ? -1 : a[0].id > b[0].id ? 1 : 0)
      ).slice(0, pool);
      const fused = new Map<CatalogEntry, SemanticHit>();
      keyword.slice(0, pool).forEach((r, i) => {
        fused.set(r.entry, { ...r, score: keywordWeight / (k + i + 1), keywordRank: i + 1 });
      });
      byVector.forEach(([entry], i) => {
        const hit = fused.get(entry) ?? { entry, score: 0, evidence: 0 };
        hit.score += 1 / (k + i + 1);
        fused.set(entry, hit);
      });
      for (const [entry, hit] of fused) hit.similarity = similarity.get(entry);
      let hits = [...fused.values()].sort((a, b) =>
        b.score - a.score || (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0)
      );
      if (!options.rerank) return { hits: hits.slice(0, limit), mode: "fused", diagnostics };
      const head = hits.slice(0, rerankPool);
      try {
        const scores = await options.rerank(query, head.map((h) => entryText(h.entry)), {
          signal,
        });
        if (scores.length !== head.length) {
          throw new TypeError(`${scores.length} scores for ${head.length} documents`);
        }
        head.forEach((h, i) => (h.rerankScore = scores[i]));
        const order = new Map(head.map((h, i) => [h, i]));
        head.sort((a, b) => b.rerankScore! - a.rerankScore! || order.get(a)! - order.get(b)!);
        hits = [...head, ...hits.slice(rerankPool)];
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        diagnostics.push(why("reranking", error).replace("keywords alone", "the fused ranking"));
        return { hits: hits.slice(0, limit), mode: "fused", diagnostics };
      }
      return { hits: hits.slice(0, limit), mode: "reranked", diagnostics };
    },
  };
}
