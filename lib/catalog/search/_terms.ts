// Private: how text becomes search terms, the same for an entry and a request.
// - Tokens are letters and digits with `-`, `_`, `.`, `:` or `/` inside; a compound stays whole and
//   also gives its parts of three characters or more (`hisat2-build` → hisat2-build, hisat2,
//   build; `sci-fi` gives no `fi`); camelCase splits (`featureCounts` → featurecounts, feature,
//   counts).
// - Scripts written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar) are cut into words by
//   `Intl.Segmenter`, a web standard in Deno, Node and browsers.
// - A genomic region, with or without thousands separators (`chr7:55,019,017-55,211,628`), is one
//   term and also the word `region`; a file name (`tumor.bam`, `reads.fq.gz`) is only its file
//   types (`bam`; `fq`, `gz`): the name itself says nothing about which tool reads it.
// - Words are stemmed with Porter2 (the Snowball English stemmer, wink-porter2-stemmer), British
//   -ise/-yse spellings folded to -ize/-yze first; stop words are checked after stemming, so
//   `runs` is the stop word `run`, and `news` stays `news` (Porter2 keeps it), not `new`.

import porter2 from "wink-porter2-stemmer";
import { BoundedCache } from "../../_bounded_cache.ts";

/** Words that carry no meaning for ranking (checked in their stemmed form). */
const STOP_WORDS = new Set(
  ("a about above after again all also am an and any are as at be because been before being " +
    "below between both but by can could did do does doing done down during each either few for " +
    "from further get got had has have having he her here hers him his how i if in into is it its " +
    "itself just let like me mine more most my need needs no nor not now of off on once only or " +
    "other our ours out over own please same she should so some such than that the their them " +
    "then there these they this those through to too under until up us use used using very want " +
    "wants was we were what when where which while who whom why will with would you your yours " +
    "give make run show tell help file files some my me i'd i'm i've can't don't it's let's " +
    "hey hi hello thank thanks kindly could might may must shall against within among upon " +
    "toward towards many much several")
    .split(" ").map((w) => stemOf(w)),
);

/** A token: letters and digits, with `-`, `_`, `.`, `:` or `/` inside (not at the ends). */
const TOKEN_TEXT = String.raw`[\p{L}\p{N}\p{M}]+(?:['’][\p{L}]+)?(?:[-_.:/][\p{L}\p{N}\p{M}]+)*`;
/**
 * A genomic region, thousands separators allowed (`chr7:55,019,017-55,211,628`), starting where a
 * run of letters and digits starts (so a long run is tried once, not once per character).
 */
const REGION_TEXT = String
  .raw`(?<![\p{L}\p{N}_.])[\p{L}\p{N}_.]+:(?:\d{1,3}(?:,\d{3})+-\d{1,3}(?:,\d{3})+|\d+-\d+)(?![\d,:])`;
/** Regions and tokens, in the order of the text, in one pass. */
const TOKENS = new RegExp(`(${REGION_TEXT})|${TOKEN_TEXT}`, "gu");
const REGION = /^[\p{L}\p{N}_.]+:\d[\d,]*-\d[\d,]*$/u;
/** A file name: a base, then file types of 1–5 lowercase letters or digits (one a letter). */
const FILE = /^[\p{L}\p{N}_-]+(?:\.(?=[a-z0-9]{0,4}[a-z])[a-z0-9]{1,5})+$/u;
/** Scripts written without spaces between words. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Memo of the pure functions below: catalogs repeat the same words thousands of times. */
export function memo<T>(fn: (word: string) => T): (word: string) => T {
  const known = new BoundedCache<string, T>(100_000, "all");
  return (word) => {
    let value = known.get(word);
    if (value === undefined && !known.has(word)) {
      known.set(word, value = fn(word));
    }
    return value as T;
  };
}

/** Porter2, British -ise/-yse spellings folded first (`normalise` and `normalize` agree). */
function stemOf(word: string): string {
  const w = word.replace(/’/g, "'").replace(/'s$/, "");
  if (w.length <= 3 || /\d/.test(w)) return w;
  // Three letters or more before the -is-/-ys-: `raise` and `raised` both stay (not `raiz`).
  const folded = w.replace(/^(\p{L}{3,}[iy])s(e|es|ed|ing|ation|ations|er|ers|ely)$/u, "$1z$2");
  return porter2(folded);
}

/** The Porter2 stem of a lowercase word (see the top of this file). */
export const stem: (word: string) => string = memo(stemOf);

/** Split camelCase inside one part: `featureCounts` → feature, Counts. */
function camelParts(part: string): string[] {
  return part.split(/(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u).filter((p) => p !== "");
}

let segmenter: Intl.Segmenter | null | undefined;
/** Words of a run of text in a script without spaces (characters when Intl.Segmenter is absent). */
function unspacedWords(text: string): string[] {
  if (segmenter === undefined) {
    segmenter = typeof Intl.Segmenter === "function"
      ? new Intl.Segmenter("zh", { granularity: "word" })
      : null;
  }
  if (segmenter === null) return [...text];
  const out: string[] = [];
  for (const s of segmenter.segment(text)) if (s.isWordLike) out.push(s.segment);
  return out;
}

/** A token and its parts: `hisat2-build` → hisat2-build, hisat2, build. */
const expand = memo((token: string): string[] => {
  if (REGION.test(token)) return [token];
  if (FILE.test(token)) return token.split(".").slice(1).map((t) => `.${t}`);
  if (UNSPACED.test(token)) return unspacedWords(token);
  const pieces = token.split(/[-_.:/]/).flatMap(camelParts).filter((p) => p.length >= 3);
  return pieces.length > 1 || (pieces.length === 1 && pieces[0] !== token)
    ? [token, ...pieces]
    : [token];
});

/** One token of a text, where it starts, and the terms it gives (itself and its parts). */
export interface TokenGroup {
  token: string;
  index: number;
  pieces: string[];
}

/** The tokens of `text` with their parts, in order, read lazily (a caller may stop early). */
export function* tokenGroups(text: string): Generator<TokenGroup> {
  for (const m of text.matchAll(TOKENS)) {
    yield { token: m[0], index: m.index, pieces: m[1] === undefined ? expand(m[0]) : [m[0]] };
  }
}

/**
 * Every term of `text`: whole compound tokens and their parts, in order, not yet normalised. A
 * file type comes as `.bam` (normalised to `bam`).
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const g of tokenGroups(text)) out.push(...g.pieces);
  return out;
}

/**
 * The indexed forms of one term: lowercased and stemmed; nothing for a stop word or a bare
 * number (counts and sizes in a request rarely say which tool); a genomic region also counts as
 * the word `region`; a file type (`.bam`) is the word `bam`.
 */
export const normalizeTerm: (term: string) => string | string[] | null = memo((term) => {
  const lower = term.toLowerCase();
  if (lower.startsWith(".")) return lower.slice(1);
  if (/^\d+(?:[.,]\d+)*$/.test(lower)) return null;
  if (REGION.test(lower)) return [lower.replace(/,/g, ""), "region"];
  const stemmed = stem(lower);
  return STOP_WORDS.has(stemmed) || STOP_WORDS.has(lower) ? null : stemmed;
});

/** The normalised terms of `text`, in order, repeats kept. */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const term = normalizeTerm(token);
    if (term === null) continue;
    if (typeof term === "string") out.push(term);
    else out.push(...term);
  }
  return out;
}

/**
 * The terms of an entry's name: those of {@link termsOf}, plus the parts of letters and digits
 * (`kraken2` → kraken, `plink2` → plink).
 */
export function nameTerms(name: string): string[] {
  const out = termsOf(name);
  for (const [, letters] of name.matchAll(/(\p{L}{3,})\d+/gu)) {
    const t = normalizeTerm(letters);
    if (typeof t === "string" && !out.includes(t)) out.push(t);
  }
  return out;
}
