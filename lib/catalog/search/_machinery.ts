// Private: the text machinery (the query analyser, the stemmer's terms, the keyword index) that
// functions taking a built catalog use synchronously (`findTools`, `findHeldTools`). A catalog
// exists only once `_catalog.ts` has loaded, and `_catalog.ts` binds the machinery here as it
// loads, so these functions reach it without a static import: the stemmer and the index stay out
// of what a page loads first.

import type { analyzeQuery } from "./_query.ts";
import type { nameTerms, termsOf } from "./_terms.ts";
import type { buildKeywordIndex } from "./_keyword_index.ts";

/** What `_catalog.ts` binds. */
export interface Machinery {
  analyzeQuery: typeof analyzeQuery;
  nameTerms: typeof nameTerms;
  termsOf: typeof termsOf;
  buildKeywordIndex: typeof buildKeywordIndex;
}

let bound: Machinery | undefined;

/** Called once by `_catalog.ts` as it loads. */
export function bindMachinery(machinery: Machinery): void {
  bound = machinery;
}

/** The machinery; only a catalog made by `createCatalog` can be passed before it is bound. */
export function machinery(): Machinery {
  if (!bound) {
    throw new TypeError(
      "expected a catalog made by createCatalog (the catalog's ranking has not been loaded)",
    );
  }
  return bound;
}
