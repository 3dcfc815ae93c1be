/**
 * Keyword ranking: BM25F with field weights over skillmux's own index, the one
 * ranker of the library. The catalog ranks with it, and so do `findTools`, the
 * skills server's `search_skills` tool and the gateway's discovery.
 *
 * @module
 */

import type { KeywordDocument, KeywordIndex } from "../model/types.ts";

/**
 * Index `documents` for keyword ranking: BM25F over name (weight 5), tags and
 * title (3), description (3), example tasks (2) and other keywords (0.3), with
 * Porter2 stems, English stop words checked after stemming, compound words
 * searchable whole and by part (`hisat2-build`, `featureCounts`,
 * `chr7:1000-2000`), scripts without spaces cut into words, and a word of five
 * letters or more that no document holds read one edit away (at half weight).
 * Each hit carries its `evidence` (see {@linkcode KeywordHit.evidence}). The
 * index is loaded on the first call, so a page that never ranks never
 * downloads it.
 *
 * @example
 * ```ts
 * import { createKeywordIndex } from "@skillmux/core/catalog";
 * const index = await createKeywordIndex([
 *   { id: "samtools", name: "samtools", description: "Sort and index BAM files", tags: ["bam"] },
 *   { id: "fastqc", name: "fastqc", description: "Quality reports for FASTQ reads", tags: ["qc"] },
 * ]);
 * console.log(index.search("sorting a bam")[0].id); // "samtools"
 * ```
 */
export async function createKeywordIndex(
  documents: readonly KeywordDocument[],
): Promise<KeywordIndex> {
  const { buildKeywordIndex } = await import("./_keyword_index.ts");
  return buildKeywordIndex(documents);
}
