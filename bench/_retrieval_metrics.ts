// Private: retrieval metrics over ranked id lists: top-1, recall@5, recall@10, MRR and nDCG@5
// (binary relevance: any expected id is relevant; the ideal list puts them first), and for
// requests labelled "none" the share that got an empty list.

/** One judged request: its expected ids ("none": nothing fits) and what a method returned. */
export interface Judged {
  expected: readonly string[] | "none";
  ranked: readonly string[];
}

/** Figures over a set of judged requests (shares 0–1). */
export interface Figures {
  n: number;
  top1: number;
  top3: number;
  recall5: number;
  recall10: number;
  mrr: number;
  ndcg5: number;
  none: number;
  /** Requests labelled "none" that got an empty list / requests labelled "none". */
  noneRecall: number;
}

const dcg = (rels: number[]) => rels.reduce((s, r, i) => s + r / Math.log2(i + 2), 0);

/** The figures of `rows`. */
export function figures(rows: readonly Judged[]): Figures {
  const withIds = rows.filter((r) => r.expected !== "none");
  const none = rows.filter((r) => r.expected === "none");
  let top1 = 0, top3 = 0, r5 = 0, r10 = 0, mrr = 0, ndcg = 0;
  for (const { expected, ranked } of withIds) {
    const want = new Set(expected as string[]);
    const first = ranked.findIndex((id) => want.has(id));
    if (first === 0) top1++;
    if (first >= 0 && first < 3) top3++;
    const found = (k: number) => ranked.slice(0, k).filter((id) => want.has(id)).length;
    r5 += found(5) / want.size;
    r10 += found(10) / want.size;
    if (first >= 0) mrr += 1 / (first + 1);
    const rels = ranked.slice(0, 5).map((id) => (want.has(id) ? 1 : 0));
    const ideal = Array.from({ length: Math.min(5, want.size) }, () => 1);
    ndcg += dcg(rels) / dcg(ideal);
  }
  const k = Math.max(1, withIds.length);
  return {
    n: withIds.length,
    top1: top1 / k,
    top3: top3 / k,
    recall5: r5 / k,
    recall10: r10 / k,
    mrr: mrr / k,
    ndcg5: ndcg / k,
    none: none.length,
    noneRecall: none.length === 0
      ? NaN
      : none.filter((r) => r.ranked.length === 0).length / none.length,
  };
}

const pct = (x: number) => (Number.isNaN(x) ? "   –  " : `${(100 * x).toFixed(1).padStart(5)} %`);

/** A table header for {@link row}. */
export const HEADER = `${"set".padEnd(34)} ${"method".padEnd(26)} ${
  "n".padStart(5)
}   top-1   top-3     R@5    R@10    MRR  nDCG@5  "none" ok`;

/** One line of the table. */
export function row(set: string, method: string, f: Figures): string {
  const ranked = f.n === 0
    ? `${"".padEnd(56)}`
    : `${pct(f.top1)} ${pct(f.top3)} ${pct(f.recall5)} ${pct(f.recall10)} ${f.mrr.toFixed(3)}  ${
      f.ndcg5.toFixed(3)
    }`;
  return `${set.padEnd(34)} ${method.padEnd(26)} ${String(f.n).padStart(5)} ${ranked}  ${
    f.none > 0 ? `${pct(f.noneRecall)} of ${f.none}` : ""
  }`;
}
