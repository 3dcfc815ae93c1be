/**
 * Exact o200k token counts (the encoding of GPT-4o and later OpenAI models), with the ranks
 * shipped in this package: about 2 MB of JavaScript (1.1 MB gzip), loaded when this module is.
 * `countTokens` from `@skillmux/core/catalog` loads this module at its first call in Deno and
 * Node; a browser app bundles it by importing it and passing `countO200kTokens` as `countTokens`.
 *
 * @example Exact counts in a bundled browser app
 * ```ts
 * import { createCatalog } from "@skillmux/core";
 * const catalog = await createCatalog({ functions: [] });
 * const { countO200kTokens } = await import("@skillmux/core/tokenizer"); // a lazy chunk
 * const listing = await catalog.render({ countTokens: countO200kTokens });
 * console.log(listing.tokens);
 * ```
 *
 * @module
 */

import { mergeCount } from "./_bpe.ts";
import { O200K_RANKS } from "./_o200k_ranks.ts";

// o200k_base's pre-tokenizer (tiktoken's pattern; `(?i:'s|…)` spelled out for JavaScript).
const SUFFIX = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`;
const UPPER = String.raw`[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`;
const LOWER = String.raw`[\p{Ll}\p{Lm}\p{Lo}\p{M}]`;
const SPLIT = new RegExp(
  String
    .raw`[^\r\n\p{L}\p{N}]?${UPPER}*${LOWER}+${SUFFIX}|[^\r\n\p{L}\p{N}]?${UPPER}+${LOWER}*${SUFFIX}|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  "gu",
);

let ranks: Map<string, number> | undefined;
// A plain Map, not lib/_bounded_cache.ts: a module the tokenizer shares with the rest of the
// library ends up in its 1.2 MB chunk, which the playground's first view would then load.
const cache = new Map<string, number>();
const CACHE_LIMIT = 50_000;
const utf8 = new TextEncoder();

function loadRanks(): Map<string, number> {
  if (ranks) return ranks;
  const table = new Map<string, number>();
  for (let i = 0, rank = 0; i < O200K_RANKS.length; rank++) {
    const length = O200K_RANKS.charCodeAt(i) - 32;
    table.set(O200K_RANKS.slice(i + 1, i + 1 + length), rank);
    i += 1 + length;
  }
  return (ranks = table);
}

/** A piece's UTF-8 bytes as a byte string (one character per byte). */
function byteString(piece: string): string {
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(piece)) return piece;
  const bytes = utf8.encode(piece);
  let out = "";
  for (let i = 0; i < bytes.length; i += 4096) {
    out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return out;
}

/**
 * The number of o200k tokens in `text`, exactly as OpenAI's tiktoken counts them. Special-token
 * strings such as `<|endoftext|>` count as the plain text they are. The first call builds the
 * rank table (about 100 ms); later calls are fast, with a cache of recent words.
 *
 * @example
 * ```ts
 * import { countO200kTokens } from "@skillmux/core/tokenizer";
 * console.log(countO200kTokens("Sort and index a BAM file")); // 6
 * ```
 */
export function countO200kTokens(text: string): number {
  const table = loadRanks();
  let count = 0;
  for (const [piece] of text.matchAll(SPLIT)) {
    let n = cache.get(piece);
    if (n === undefined) {
      n = mergeCount(byteString(piece), table);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(piece, n);
    }
    count += n;
  }
  return count;
}
