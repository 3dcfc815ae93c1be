// Private: whether an entry fits a request, next to BM25's relative score. BM25 ranks whatever
// shares a word with the request, however slight; evidence asks what the shared words say:
// - each word the entry holds counts by its best field (name 3, tags or title 2, an example task
//   or the description 1.5, other words 0.5) times how specific it is in this catalog (its IDF
//   over the catalog's largest), an everyday word ("call", "map", "sort") a third of that, and a
//   word that is another entry's whole name a third (the entry only quotes it);
// - words no entry holds count against (everyday words never): a plain word ("recipe", "oven") 0.6,
//   a product name (`AlphaFold`, `Seurat`) 2 (the floor: a request for a tool the catalog lacks
//   needs twice the evidence to fit), an all-capital acronym 0.3; a product name that entries
//   mention but none is named, 0.75; identifiers, numbers and file types nothing;
// - a tool's name no entry is named by (`DESeq2`, `with REGENIE`) counts a third in the entries
//   that mention it, and against them too: they are next to what the request wants, not it;
// - a lone match (one specific word, the rest slight) fits only a request with nothing against it
//   ("salmon" alone, not "salmon recipe for the oven"), or, when the word is specific, with less
//   than two plain words against it on an entry that says more than a line;
// - the first hit is kept when its BM25 score is MARGIN times the second's and it has evidence
//   of its own (a clear winner is never dropped by the floor).
// Exact terms only (after stemming): a typo or a related form ranks, but weighs half.

import { normalizeTerm } from "./_terms.ts";
import type { QueryTerm } from "./_query.ts";
import { DESCRIPTION, KEYWORD, NAME, TAG, TASK } from "./_segment.ts";

/** Weight of a query word by the best field of the document that holds it. */
const FIELD_WEIGHT = [3, 2, 1.5, 1.5, 0.5];
/** The description of an entry that has nothing else (tools, functions: no tags, tasks or body) weighs like tags. */
const DESCRIBED_ONLY = 2;
const EVERYDAY_SHARE = 1 / 3;
const QUOTED_SHARE = 1 / 3;
/** Share of its evidence an entry keeps when no specific word is in its name, tags or description. */
const UNANCHORED_SHARE = 0.5;
/** A match contributing this much is a specific one; the rest are slight. */
const SPECIFIC = 0.6;
/** The entry's whole name is in the request. */
const NAMED_BONUS = 1;
export const MARGIN = 2.5;
const CLEAR_WINNER_MIN = 0.5;
/** A lone match of a word at least this specific is a topic, not a homonym. */
const LONE_SPECIFICITY = 0.8;
/**
 * ...unless the words against weigh this much (two plain words no entry holds) and the entry says
 * more than a description (tags, example tasks or a body: a rich entry that shares one word only with a
 * request is further from it than a one-line tool is): the request is about something else
 * ("pivot table in Excel from the sales sheet" is not a sample sheet).
 */
const PULL_AWAY = 1.2;

import { EVIDENCE_FLOOR } from "./_evidence_floor.ts";
export { EVIDENCE_FLOOR };

/** Weight against the request of a word no entry holds, by its shape. */
const AGAINST = { product: 2, word: 0.6, acronym: 0.3, id: 0, file: 0 } as const;
const MENTIONED_PRODUCT = 0.75;
/**
 * A word other entries hold only in their prose (concepts, examples), and this one not, weighs
 * against a lone match this share; one another entry is about (its name, tags, tasks or
 * description) is a second request, not one that pulls away ("samtools quintile").
 */
const ELSEWHERE_SHARE = 0.5;

/**
 * Everyday words that mean different things in different fields: they count a third.
 * "call the echo tool" vs "variant calling", "map ids to names" vs "map reads", "sort a list"
 * vs "sort a BAM", "align text" vs "align reads", "index documents" vs "index a genome".
 */
export const EVERYDAY: ReadonlySet<string> = new Set(
  ("add align analyse analysis analyze api app build calculate call center check clean combine " +
    "command compare compute convert count create data default different document each every " +
    "example explain extract fast fetch filter find first fix format generate group id index " +
    "input job join keep large line list long many map merge message mode name new number one " +
    "option order output per print process query quick random read remove report result return " +
    "search second send server set short simple single small sort split step summarise " +
    "summary table test text three time tool top translate tree two type user value version " +
    "word write")
    .split(" ").flatMap((w) => [normalizeTerm(w)].flat()).filter((t): t is string => !!t),
);

/** One query term a document holds. */
export interface Match {
  /** Index of the term in the query's terms. */
  term: number;
  /** Its best field. */
  field: number;
  /** Its weight: 1, less for a typo or a related form. */
  weight: number;
  /** Another entry is named by it, and this one is not. */
  quoted: boolean;
}

/** What the evidence of one document needs to know. */
export interface EvidenceInput {
  query: readonly QueryTerm[];
  /** Specificity of each query term in the catalog (0 when no entry holds it). */
  specificity: readonly number[];
  /** Whether an entry is named by each query term. */
  named: readonly boolean[];
  /** Whether an entry holds each query term in its name, tags, tasks or description. */
  curated: readonly boolean[];
  matches: readonly Match[];
  /** A keyword line of the document holds two of the query's terms, one of them specific. */
  lineOfTwo: boolean;
  /** The document's whole name is one of the query's terms. */
  ownName: boolean;
  described: boolean;
  /** The document says much more than a line: tags, example tasks or a body of its own. */
  rich?: boolean;
  /** The document ranks first with MARGIN times the second's score. */
  clearWinner: boolean;
  /** {@link againstOf} the request, when the caller computed it once for every entry. */
  against?: Against;
}

/** What each word of a request weighs against any entry that does not hold it. */
export interface Against {
  weights: number[];
  total: number;
  /** The part of `total` from product names. */
  products: number;
}

/** The weights against of a request's words (the same for every entry: computed once). */
export function againstOf(
  x: Pick<EvidenceInput, "query" | "specificity" | "named" | "curated">,
): Against {
  let total = 0;
  let products = 0;
  const weights = x.query.map((q, i) => {
    if (q.joined || q.part || EVERYDAY.has(q.term)) return 0;
    const weight = x.specificity[i] === 0
      ? AGAINST[q.shape]
      : q.shape === "product" && !x.named[i]
      ? MENTIONED_PRODUCT
      : x.curated[i]
      ? 0
      : AGAINST[q.shape] * ELSEWHERE_SHARE;
    total += weight;
    if (q.shape === "product") products += weight;
    return weight;
  });
  return { weights, total, products };
}

/** The evidence of one document (see the top of this file). */
export function evidence(x: EvidenceInput): number {
  let sum = 0;
  let best = 0;
  let bestSpecificity = 0;
  let specific = 0;
  let anchored = x.lineOfTwo;
  const held = new Set<number>();
  const mentions = new Set<number>();
  for (const m of x.matches) {
    held.add(m.term);
    const q = x.query[m.term];
    const base = m.field === DESCRIPTION && x.described && x.rich !== true
      ? DESCRIBED_ONLY
      : FIELD_WEIGHT[m.field];
    const everyday = EVERYDAY.has(q.term);
    // A tool no entry is named by: this entry mentions a tool the catalog does not hold.
    const elsewhere = q.tool === true && !x.named[m.term];
    if (elsewhere) mentions.add(m.term);
    const c = base * x.specificity[m.term] * m.weight * (everyday ? EVERYDAY_SHARE : 1) *
      (m.quoted || elsewhere ? QUOTED_SHARE : 1);
    sum += c;
    if (c > best) {
      best = c;
      bestSpecificity = x.specificity[m.term] * (everyday ? EVERYDAY_SHARE : 1);
    }
    if (c >= SPECIFIC) specific++;
    if (!everyday && m.field <= DESCRIPTION && m.field !== TASK && c >= SPECIFIC / 2) {
      anchored = true;
    }
  }
  if (!anchored) sum *= UNANCHORED_SHARE;
  const lone = specific <= 1 && sum - best < SPECIFIC;
  if (x.ownName) {
    const name = x.matches.find((m) => m.field === NAME && x.named[m.term]);
    sum += name && EVERYDAY.has(x.query[name.term].term)
      ? NAMED_BONUS * EVERYDAY_SHARE
      : NAMED_BONUS;
  }
  // What the request's words weigh against, less the words this entry holds.
  const w = x.against ?? againstOf(x);
  let against = w.total;
  let products = w.products;
  for (const i of held) {
    if (mentions.has(i)) continue;
    against -= w.weights[i];
    if (x.query[i].shape === "product") products -= w.weights[i];
  }
  // Several matches lose only to product names; so does a lone match of a word this catalog holds
  // in few entries (`podcast`); the entry's whole name alone (`salmon`) or a commoner word alone
  // (`trim`) fits only with nothing against it. A one-line tool named by the request ("weather for
  // my wedding") fits unless two plain words or more pull away: its name is most of what it says.
  const homonym = lone &&
    ((x.ownName && (x.rich === true || against >= PULL_AWAY)) ||
      bestSpecificity < LONE_SPECIFICITY || (against >= PULL_AWAY && x.rich === true));
  let value = homonym && against > 0 ? Math.min(sum, EVIDENCE_FLOOR) - against : sum - products;
  // A clear winner with evidence of its own is never dropped by the floor.
  if (x.clearWinner && !(homonym && against > 0) && value > CLEAR_WINNER_MIN) {
    value = Math.max(value, EVIDENCE_FLOOR);
  }
  return Math.round(value * 100) / 100;
}

export { DESCRIPTION, KEYWORD, NAME, TAG, TASK };
