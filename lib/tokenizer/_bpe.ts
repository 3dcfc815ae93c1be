// Private: tiktoken's byte-pair merge, counting only. The piece is a "byte string" (one character
// per byte, U+0000–U+00FF); `ranks` maps byte strings to their rank. Repeatedly merge the adjacent
// pair whose joined bytes have the lowest rank (the leftmost on a tie) until no pair is a token;
// the parts left are the tokens. A binary heap of candidate pairs keeps a long piece (a run of
// punctuation has no space to split it) at O(n log n) instead of tiktoken's O(n²).

/** The number of tokens byte string `piece` merges into. Every single byte must be a token. */
export function mergeCount(piece: string, ranks: ReadonlyMap<string, number>): number {
  const n = piece.length;
  if (n < 2 || ranks.has(piece)) return Math.min(n, 1);
  return n <= 32 ? mergeShort(piece, ranks) : mergeLong(piece, ranks);
}

/** tiktoken's own loop: scan every pair for the lowest rank, merge it, repeat. Fast when short. */
function mergeShort(piece: string, ranks: ReadonlyMap<string, number>): number {
  const starts = Array.from({ length: piece.length + 1 }, (_, i) => i);
  const rankAt = (i: number) =>
    i + 2 < starts.length ? ranks.get(piece.slice(starts[i], starts[i + 2])) ?? Infinity : Infinity;
  const pairRanks = starts.slice(0, -2).map((_, i) => rankAt(i));
  for (;;) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i < pairRanks.length; i++) {
      if (pairRanks[i] < best) (best = pairRanks[i]), (at = i);
    }
    if (at < 0) return starts.length - 1;
    starts.splice(at + 1, 1);
    pairRanks.splice(at, 1);
    pairRanks[at] = rankAt(at);
    if (at > 0) pairRanks[at - 1] = rankAt(at - 1);
  }
}

/** The same merges with a heap of candidate pairs: O(n log n) for a long piece. */
function mergeLong(piece: string, ranks: ReadonlyMap<string, number>): number {
  const n = piece.length;
  // Parts are byte ranges [start, next[start]); `next` links the starts of live parts.
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) (next[i] = i + 1), (prev[i] = i - 1);
  const alive = new Uint8Array(n).fill(1);
  const heap: number[] = [];
  // A heap key is rank × 2^31 + start: the lowest rank first, then the leftmost pair.
  const push = (start: number) => {
    const end = next[next[start]];
    if (next[start] >= n) return;
    const rank = ranks.get(piece.slice(start, end));
    if (rank !== undefined) heapPush(heap, rank * 2 ** 31 + start);
  };
  for (let i = 0; i + 1 < n; i++) push(i);
  let parts = n;
  while (heap.length > 0) {
    const key = heapPop(heap);
    const start = key % 2 ** 31;
    const rank = (key - start) / 2 ** 31;
    // Skip keys of pairs that changed since: the pair starting here must still be that token.
    if (!alive[start] || next[start] >= n) continue;
    if (ranks.get(piece.slice(start, next[next[start]])) !== rank) continue;
    const right = next[start];
    alive[right] = 0;
    next[start] = next[right];
    prev[next[right]] = start;
    parts--;
    if (prev[start] >= 0) push(prev[start]);
    push(start);
  }
  return parts;
}

function heapPush(heap: number[], key: number): void {
  let i = heap.push(key) - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent] <= key) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = key;
}

function heapPop(heap: number[]): number {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length > 0) {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const child = left + 1 < heap.length && heap[left + 1] < heap[left] ? left + 1 : left;
      if (heap[child] >= last) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = last;
  }
  return top;
}
