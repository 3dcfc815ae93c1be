/**
 * Token counts: exact o200k (GPT-4o and later) from this package's own tokenizer
 * (`@skillmux/core/tokenizer`), loaded on first use where it can be, or a character estimate.
 *
 * @module
 */

import { loaders } from "../../_runtime_loaders.ts";

/**
 * Headroom to keep below a model's limit when counting with o200k for a model
 * with another tokenizer: Claude's tokenizer is not public and o200k
 * undercounts it (a community proxy measured o200k × 1.15 still short), so
 * budget 80 % of the real limit there. For OpenAI o200k models the count is exact.
 *
 * @example Budget a Claude prompt
 * ```ts
 * import { OTHER_TOKENIZER_HEADROOM } from "@skillmux/core/catalog";
 * const budget = Math.floor(8_000 * (1 - OTHER_TOKENIZER_HEADROOM)); // 6400
 * console.log(budget);
 * ```
 */
export const OTHER_TOKENIZER_HEADROOM = 0.2;

let encoder: Promise<(text: string) => number> | undefined;

/**
 * A quick upper estimate of a text's o200k tokens from its characters: a third of its ASCII
 * letters and digits, plus one per ASCII punctuation mark, line break and non-ASCII UTF-16 unit.
 * On the built-in skills it is 5–60 % above the exact count. `countTokens` falls back to it
 * where the tokenizer cannot load (see there).
 *
 * @example
 * ```ts
 * import { estimateTokens } from "@skillmux/core/catalog";
 * console.log(estimateTokens("Sort and index a BAM file")); // 7 (exact: 6)
 * ```
 */
export function estimateTokens(text: string): number {
  let word = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) word++;
    else if (c !== 0x20 && c !== 0x09) other++;
  }
  return Math.ceil(word / 3) + other;
}

/**
 * Where the tokenizer module lies beside this one. The specifier is built at run time so that a
 * bundler does not inline the tokenizer's 2 MB of ranks into a bundle of `.`: Deno and Node load
 * it from the package's files on the first count.
 */
function tokenizerModule(): string {
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  return new URL(["..", "..", "tokenizer", `mod${ext}`].join("/"), import.meta.url).href;
}

/**
 * The number of o200k tokens in `text`. The first call loads the tokenizer
 * (`@skillmux/core/tokenizer`: 2 MB of ranks, 1.1 MB gzip, never in a page's first load)
 * from the package's files, as Deno and Node do. In a bundled browser app that module is not
 * beside the bundle, so counts there are `estimateTokens`' upper estimate, unless you pass the
 * exact counter where a budget is taken (the `countTokens` option of `render`, `selectTools`,
 * `assemblePrompt`), e.g.
 * `countTokens: async (t) => (await import("@skillmux/core/tokenizer")).countO200kTokens(t)`.
 * Special-token strings such as `<|endoftext|>` count as the plain text they are.
 *
 * @example
 * ```ts
 * import { countTokens } from "@skillmux/core/catalog";
 * console.log(await countTokens("Sort and index a BAM file")); // 6
 * ```
 */
export function countTokens(text: string): Promise<number> {
  encoder ??= (loaders.tokenizer?.() ??
    import(/* @vite-ignore */ /* webpackIgnore: true */ tokenizerModule())).then(
      (m: { countO200kTokens: (text: string) => number }) => m.countO200kTokens,
      () => estimateTokens,
    );
  return encoder.then((count) => count(text));
}
