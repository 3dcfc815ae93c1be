/**
 * Keyword ranking: BM25+ with field boosts (minisearch), the one ranker of the
 * library. The catalog ranks with it, and so does the skills server's
 * `search_skills` tool.
 *
 * @module
 */

import type { KeywordDocument, KeywordIndex } from "./types.ts";

/**
 * Index `documents` for keyword ranking: BM25+ over name (boost 4), tags (3),
 * title (2), description (1.5) and keywords (1), with English stop words
 * dropped, light stemming (`sorting` finds `sort`), compound words searchable
 * whole and by part (`hisat2-build`, `featureCounts`, `chr7:1000-2000`),
 * prefix matching for longer words and small typos forgiven. minisearch is
 * loaded on the first call, so a page that never ranks never downloads it.
 *
 * @example
 * ```ts
 * import { createKeywordIndex } from "@skillmux/core";
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
