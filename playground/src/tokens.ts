// Token counts the page shows: exact o200k counts from the library's tokenizer
// (`@skillmux/core/tokenizer`, a lazy chunk of the build, loaded on the first count), or, when
// that chunk cannot load, the library's character estimate, and then labelled as one.
import { estimateTokens } from "@skillmux/core/catalog";

/** A counter for the library's `countTokens` options, and whether its counts are exact. */
export interface Counter {
  count: (text: string) => Promise<number>;
  exact: boolean;
}

let loaded: Promise<Counter> | undefined;

/** The exact counter once its chunk loaded; the estimate (exact: false) if it cannot load. */
export function tokenCounter(): Promise<Counter> {
  loaded ??= import("@skillmux/core/tokenizer").then(
    ({ countO200kTokens }) => ({ count: async (text: string) => countO200kTokens(text), exact: true }),
    (error) => {
      console.warn(`Token counts are estimates: the tokenizer did not load (${error})`);
      loaded = undefined; // the next view tries again
      return { count: async (text: string) => estimateTokens(text), exact: false };
    },
  );
  return loaded;
}

/** A count as the page prints it: 6175 → "6,175". */
export function formatCount(tokens: number): string {
  return tokens.toLocaleString("en-US");
}
