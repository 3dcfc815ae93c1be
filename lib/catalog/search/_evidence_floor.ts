// Private: how much evidence an entry needs to be selected or found. `_evidence.ts` weighs the
// evidence; the floor lives apart so that `findTools` and `findHeldTools` can compare against it
// without loading the weighing (and the stemmer behind it) on a page's first load.

/** An entry needs this much evidence to be selected or found. */
export const EVIDENCE_FLOOR = 2;
