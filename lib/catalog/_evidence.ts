// Private: absolute relevance of a document to a query, next to BM25's relative score. BM25 ranks
// whatever shares a word with the request, however slight; evidence asks where the request's
// words appear: a word in a skill's name, tags or example tasks says far more than one in its
// prose, and an everyday verb ("call", "map", "sort") says little anywhere ("call a tool" is not
// "variant calling"). Exact terms only (after stemming): fuzzy and prefix matches rank, but do
// not make an entry relevant ("weather" is not "whether").

import { normalizeTerm, tokenize } from "./_terms.ts";
import type { KeywordDocument } from "./types.ts";

/** Weight of a query word by the best field of the document that holds it. */
const FIELD_WEIGHT = { name: 3, tag: 2, task: 1.5, description: 1, weak: 0.5 } as const;

/** Share of its field weight an everyday word keeps. */
const EVERYDAY_SHARE = 1 / 3;

/** Share of its evidence an entry keeps when no specific query word is in its name, tags or description. */
const UNANCHORED_SHARE = 0.5;

/** An entry needs this much evidence to be selected (one name word, or a tag and more). */
export const EVIDENCE_FLOOR = 2;

/**
 * Everyday words that mean different things in different fields: they count a third.
 * "call the echo tool" vs "variant calling", "map ids to names" vs "map reads", "sort a list"
 * vs "sort a BAM", "align text" vs "align reads", "index documents" vs "index a genome".
 */
const EVERYDAY = new Set(
  ("add align analyse analysis analyze api build calculate call center check clean combine " +
    "command compare compute convert count create data default different document each every " +
    "example explain extract fast fetch filter find first fix format generate group id index " +
    "input job join keep large line list long many map merge message mode name new number one option " +
    "order output per print process query quick random read remove report result return search " +
    "second send server set short simple single small sort split step summarise summarize " +
    "summary table test text three time tool top translate tree two type user value version " +
    "word write")
    .split(" ").flatMap((w) => [normalizeTerm(w)].flat()).filter((t): t is string => !!t),
);

/** The distinct indexed terms of `texts`. */
function termsOf(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    for (const token of tokenize(text)) {
      const term = normalizeTerm(token);
      if (term === null) continue;
      for (const t of [term].flat()) out.add(t);
    }
  }
  return out;
}

/** Per-document term sets, by field weight. */
export interface EvidenceFields {
  name: Set<string>;
  tag: Set<string>;
  task: Set<string>;
  /** Each example task's terms, to see a request phrased like one of them. */
  lines: Set<string>[];
  description: Set<string>;
  /** No tags and no tasks: the description weighs like tags (but half for everyday words). */
  describedOnly: boolean;
  weak: Set<string>;
}

/** The term sets of one document. */
export function evidenceFields(d: KeywordDocument): EvidenceFields {
  return {
    name: termsOf([d.name]),
    tag: termsOf([d.title ?? "", ...(d.tags ?? [])]),
    task: termsOf(d.tasks ?? []),
    lines: (d.tasks ?? []).map((t) => termsOf([t])),
    // An entry with only a description (tools, functions) says all it does there.
    description: termsOf([d.description]),
    describedOnly: !d.tags?.length && !d.tasks?.length,
    weak: termsOf(d.keywords ?? []),
  };
}

/**
 * The distinct indexed terms of a query, of two characters or more. Lowercased first: a query's
 * camelCase is not split (`JavaScript` is not `java` and `script`), its `-`, `_`, `.`, `:` and
 * `/` compounds are (`hisat2-build`).
 */
export function queryTerms(query: string): string[] {
  return [...termsOf([query.toLowerCase()])].filter((t) => t.length >= 2);
}

/**
 * The evidence `fields` hold for `terms` (see `KeywordHit.evidence`). Example tasks and other
 * keywords are long prose: words found only there count half, unless a specific word of the
 * query is in the name, tags or description, or one example task holds two words of the query
 * and one of them is specific.
 */
export function evidence(fields: EvidenceFields, terms: readonly string[]): number {
  let sum = 0;
  let anchored = false;
  for (const term of terms) {
    const curated = fields.name.has(term)
      ? FIELD_WEIGHT.name
      : fields.tag.has(term)
      ? FIELD_WEIGHT.tag
      : fields.description.has(term)
      ? (fields.describedOnly ? FIELD_WEIGHT.tag : FIELD_WEIGHT.description)
      : 0;
    const weight = Math.max(
      curated,
      fields.task.has(term) ? FIELD_WEIGHT.task : fields.weak.has(term) ? FIELD_WEIGHT.weak : 0,
    );
    const everyday = EVERYDAY.has(term);
    if (curated > 0 && !everyday) anchored = true;
    sum += everyday ? weight * EVERYDAY_SHARE : weight;
  }
  anchored ||= fields.lines.some((line) => {
    const found = terms.filter((t) => line.has(t));
    return found.length >= 2 && found.some((t) => !EVERYDAY.has(t));
  });
  return Math.round((anchored ? sum : sum * UNANCHORED_SHARE) * 100) / 100;
}
