// Private: a minisearch index that can score as one segment of a larger corpus. BM25 weighs a
// term by how many documents of the whole corpus hold it, and a field's length against the
// corpus's average: a segment searched alone would score by its own counts. While `corpus` is
// set, a segment scores with the counts of every segment of the corpus, so searching each
// segment and merging the hits ranks as one index of all their documents would (the scores agree
// to the last bits of floating point; see test/catalog/segments.test.ts). It reaches into
// minisearch internals (termResults, _fieldIds, _fieldLength, _index), so package.json and
// deno.json pin minisearch to one exact version; the segments test fails if an upgrade moves them.

import MiniSearch, { type Options } from "minisearch";

/** What a corpus needs of each of its segments. */
export interface CorpusSegment {
  readonly documentCount: number;
  frequency(term: string, fieldId: number): number;
  fieldTotals(): number[];
}

/** Document counts and field lengths of every segment of a corpus. */
export interface Corpus {
  segments: readonly CorpusSegment[];
  documentCount: number;
  /** Average length of each field (by field id) over the corpus. */
  avgFieldLength: number[];
}

type FieldTermData = Map<number, Map<number, number>>;

/** minisearch's state, as its `loadJS` sets it (7.2.0). */
const STATE = [
  "_documentCount",
  "_nextId",
  "_idToShortId",
  "_fieldIds",
  "_avgFieldLength",
  "_dirtCount",
  "_index",
  "_documentIds",
  "_fieldLength",
  "_storedFields",
] as const;
type Result = { score: number; terms: string[]; match: Record<string, string[]> };
type BM25 = { k: number; b: number; d: number };

/** minisearch's BM25+ (its `calcBM25Score`), with the corpus's counts. */
function bm25(tf: number, df: number, n: number, length: number, avg: number, p: BM25): number {
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return idf * (p.d + tf * (p.k + 1) / (tf + p.k * (1 - p.b + p.b * length / avg)));
}

/** A minisearch index that scores with `corpus`'s counts while it is set. */
export class CorpusSearch<T> extends MiniSearch<T> implements CorpusSegment {
  /** Set only during a search of several segments (searches are synchronous). */
  corpus: Corpus | undefined;

  constructor(options: Options<T>) {
    super(options);
    const base = (this as unknown as { termResults: (...args: unknown[]) => unknown })
      .termResults.bind(this);
    // minisearch's termResults is private: replaced on the instance, the same loop with the
    // corpus's document frequency, document count and average field length.
    (this as unknown as { termResults: unknown }).termResults = (
      sourceTerm: string,
      derivedTerm: string,
      termWeight: number,
      termBoost: number,
      fieldTermData: FieldTermData | undefined,
      fieldBoosts: Record<string, number>,
      boostDocument: unknown,
      bm25params: BM25,
      results: Map<number, Result> = new Map(),
    ) => {
      const corpus = this.corpus;
      if (corpus === undefined || boostDocument) {
        return base(
          sourceTerm,
          derivedTerm,
          termWeight,
          termBoost,
          fieldTermData,
          fieldBoosts,
          boostDocument,
          bm25params,
          results,
        );
      }
      if (fieldTermData == null) return results;
      for (const field of Object.keys(fieldBoosts)) {
        const fieldId = this._fieldIds[field];
        const freqs = fieldTermData.get(fieldId);
        if (freqs == null) continue;
        let df = 0;
        for (const segment of corpus.segments) df += segment.frequency(derivedTerm, fieldId);
        const avg = corpus.avgFieldLength[fieldId];
        for (const [docId, tf] of freqs) {
          const length = this._fieldLength.get(docId)![fieldId];
          const score = termWeight * termBoost * fieldBoosts[field] *
            bm25(tf, df, corpus.documentCount, length, avg, bm25params);
          const result = results.get(docId);
          if (result) {
            result.score += score;
            if (!result.terms.includes(sourceTerm)) result.terms.push(sourceTerm);
            const match = Object.hasOwn(result.match, derivedTerm)
              ? result.match[derivedTerm]
              : undefined;
            if (match) match.push(field);
            else result.match[derivedTerm] = [field];
          } else {
            results.set(docId, { score, terms: [sourceTerm], match: { [derivedTerm]: [field] } });
          }
        }
      }
      return results;
    };
  }

  /**
   * An index saved with `JSON.stringify(index)` (minisearch's own form), loaded as a corpus
   * segment. minisearch's `loadJS` makes a plain MiniSearch; its state moves into a new
   * CorpusSearch built with the same options. Throws on data minisearch refuses.
   */
  static fromJS<T>(js: unknown, options: Options<T>): CorpusSearch<T> {
    // loadJS (loadJSON without the JSON.parse) is public but left out of minisearch's types.
    const load = (MiniSearch as unknown as {
      loadJS(js: unknown, options: Options<T>): MiniSearch<T>;
    }).loadJS;
    const plain = load.call(MiniSearch, js, options);
    const segment = new CorpusSearch<T>(options);
    for (const field of STATE) {
      (segment as unknown as Record<string, unknown>)[field] =
        (plain as unknown as Record<string, unknown>)[field];
    }
    return segment;
  }

  /** How many of this segment's documents hold `term` in field `fieldId`. */
  frequency(term: string, fieldId: number): number {
    return (this._index.get(term) as FieldTermData | undefined)?.get(fieldId)?.size ?? 0;
  }

  /** Total length of each field over this segment's documents (by field id). */
  fieldTotals(): number[] {
    return this._avgFieldLength.map((avg) => avg * this.documentCount);
  }
}

/** The corpus of `segments`: their documents counted together. */
export function corpusOf(segments: readonly CorpusSegment[]): Corpus {
  let documentCount = 0;
  const totals: number[] = [];
  for (const segment of segments) {
    documentCount += segment.documentCount;
    segment.fieldTotals().forEach((t, i) => (totals[i] = (totals[i] ?? 0) + t));
  }
  return {
    segments,
    documentCount,
    avgFieldLength: totals.map((t) => (documentCount > 0 ? t / documentCount : 0)),
  };
}
