/**
 * Token counts with a real tokenizer: o200k (GPT-4o and later) from
 * `gpt-tokenizer`, loaded on first use.
 *
 * @module
 */

/**
 * Headroom to keep below a model's limit when counting with o200k for a model
 * with another tokenizer: Claude's tokenizer is not public and o200k
 * undercounts it (a community proxy measured o200k × 1.15 still short), so
 * budget 80 % of the real limit there. For OpenAI o200k models the count is exact.
 *
 * @example Budget a Claude prompt
 * ```ts
 * import { OTHER_TOKENIZER_HEADROOM } from "@skillmux/core";
 * const budget = Math.floor(8_000 * (1 - OTHER_TOKENIZER_HEADROOM)); // 6400
 * console.log(budget);
 * ```
 */
export const OTHER_TOKENIZER_HEADROOM = 0.2;

let encoder: Promise<(text: string) => number> | undefined;

/**
 * The number of o200k tokens in `text`. The first call loads `gpt-tokenizer`'s
 * o200k tables (about 2.4 MB of JavaScript, never in a page's first load);
 * pass your own counter where a budget is taken (`countTokens` options) to
 * avoid that, e.g. in a browser that only needs an estimate. Special-token
 * strings such as `<|endoftext|>` count as the plain text they are.
 *
 * @example
 * ```ts
 * import { countTokens } from "@skillmux/core";
 * console.log(await countTokens("Sort and index a BAM file")); // 6
 * ```
 */
export async function countTokens(text: string): Promise<number> {
  // Special-token strings (`<|endoftext|>`) in untrusted text count as plain text.
  const plain = { disallowedSpecial: new Set<string>() };
  encoder ??= import("gpt-tokenizer/encoding/o200k_base").then((m) => (t: string) =>
    m.countTokens(t, plain)
  );
  encoder.catch(() => (encoder = undefined));
  return (await encoder)(text);
}
