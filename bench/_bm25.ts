// Private: the retrieval bench's peer, a plain BM25 (k1 1.2, b 0.75) over one bag of words per
// document, with English stop words dropped and a suffix stemmer (-ies, -es, -s, -ing, -ed, -ly),
// the baseline the published tool-retrieval comparisons use. No field weights, no floor.

const STOP = new Set(
  ("a about above after again against all am an and any are as at be because been before being " +
    "below between both but by can could did do does doing down during each few for from further " +
    "had has have having he her here hers herself him himself his how i if in into is it its " +
    "itself just me more most my myself no nor not now of off on once only or other our ours out " +
    "over own same she should so some such than that the their theirs them then there these they " +
    "this those through to too under until up very was we were what when where which while who " +
    "whom why will with would you your yours").split(" "),
);

function stem(w: string): string {
  if (w.length <= 3) return w;
  for (
    const [suffix, keep] of [["ies", "y"], ["es", ""], ["s", ""], ["ing", ""], ["ed", ""], [
      "ly",
      "",
    ]]
  ) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      return w.slice(0, -suffix.length) + keep;
    }
  }
  return w;
}

/** The bag of words of `text`. */
export function bagOfWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w)).map(stem);
}

/** A BM25 index over `docs` (id → text); `search` returns ids, best first, ties by id. */
export function plainBm25(docs: ReadonlyArray<{ id: string; text: string }>) {
  const k1 = 1.2, b = 0.75;
  const tfs = docs.map((d) => {
    const tf = new Map<string, number>();
    for (const w of bagOfWords(d.text)) tf.set(w, (tf.get(w) ?? 0) + 1);
    return tf;
  });
  const lengths = tfs.map((tf) => [...tf.values()].reduce((a, n) => a + n, 0));
  const avg = lengths.reduce((a, n) => a + n, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const tf of tfs) for (const w of tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const n = docs.length;
  return {
    search(query: string, limit = 10): string[] {
      const terms = [...new Set(bagOfWords(query))];
      const scored: Array<[string, number]> = [];
      tfs.forEach((tf, i) => {
        let s = 0;
        for (const t of terms) {
          const f = tf.get(t);
          if (!f) continue;
          const d = df.get(t)!;
          const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
          s += idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * lengths[i] / avg));
        }
        if (s > 0) scored.push([docs[i].id, s]);
      });
      scored.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
      return scored.slice(0, limit).map(([id]) => id);
    },
  };
}
