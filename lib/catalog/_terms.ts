// Private: how text becomes search terms. Compound words stay searchable whole and by part:
// `hisat2-build` → hisat2-build, hisat2, build; `featureCounts` → featurecounts, feature, count;
// `chr7:1000-2000` → chr7:1000-2000, chr7, 1000, 2000. English stop words are dropped and a
// light suffix stripper folds `sorting`, `sorted` and `sorts` into `sort`.

/** Words that carry no meaning for ranking. */
const STOP_WORDS = new Set(
  ("a about above after again all also am an and any are as at be because been before being " +
    "below between both but by can could did do does doing done down during each either few for " +
    "from further get got had has have having he her here hers him his how i if in into is it its " +
    "itself just let like me mine more most my need needs no nor not now of off on once only or " +
    "other our ours out over own please same she should so some such than that the their them " +
    "then there these they this those through to too under until up us use used using very want " +
    "wants was we were what when where which while who whom why will with would you your yours " +
    "give make run show tell help file files some my me i'd i'm")
    .split(" "),
);

/** A token: letters and digits, with `-`, `_`, `.`, `:` or `/` inside (not at the ends). */
const TOKEN = /[\p{L}\p{N}]+(?:[-_.:/][\p{L}\p{N}]+)*/gu;

/** Split camelCase and letter-digit boundaries inside one part: `featureCounts` → feature, Counts. */
function camelParts(part: string): string[] {
  return part.split(/(?<=[\p{Ll}])(?=\p{Lu})/u).filter((p) => p !== "");
}

/** Memo of the pure functions below: catalogs repeat the same words thousands of times. */
function memo<T>(fn: (word: string) => T): (word: string) => T {
  const known = new Map<string, T>();
  return (word) => {
    let value = known.get(word);
    if (value === undefined && !known.has(word)) {
      if (known.size >= 100_000) known.clear();
      known.set(word, value = fn(word));
    }
    return value as T;
  };
}

/** A token and its parts: `hisat2-build` → hisat2-build, hisat2, build. */
const expand = memo((token: string): string[] => {
  const pieces = token.split(/[-_.:/]/).flatMap(camelParts);
  return pieces.length > 1 ? [token, ...pieces] : [token];
});

/** Every term of `text`: whole compound tokens and their parts, in order, not yet normalised. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const [token] of text.matchAll(TOKEN)) out.push(...expand(token));
  return out;
}

/** Fold common English suffixes: sorting, sorted, sorts → sort; indexes → index; alignment → align. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  return dropFinalE(stripSuffix(word));
}

function stripSuffix(w: string): string {
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  const noun = /(?:([iy])[sz]ations?|ations?)$/.exec(w);
  if (noun && w.length - noun[0].length >= 4) {
    return w.slice(0, -noun[0].length) + (noun[1] ? "iz" : "at"); // recalibration → recalibrat
  }
  if (/[iy][sz]e[sd]?$/.test(w)) return w.replace(/[iy][sz]e[sd]?$/, "iz"); // normalise → normaliz
  if (w.endsWith("ments")) w = w.slice(0, -1);
  if (w.endsWith("ment") && w.length > 7) return w.slice(0, -4);
  if (/(sses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  for (const suffix of ["ing", "ed"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
      return w;
    }
  }
  return w;
}

/** `duplicate`, `duplicated` and `duplicating` all end as `duplicat`. */
function dropFinalE(w: string): string {
  return w.length > 4 && w.endsWith("e") ? w.slice(0, -1) : w;
}

/** `chr7:1000-2000`, `1:100,000-200,000`: a genomic region. */
const REGION = /^[\p{L}\p{N}_.]+:\d[\d,]*-\d[\d,]*$/u;

/**
 * The indexed forms of one term: lowercased and stemmed; nothing for a stop word or a bare
 * number (counts and sizes in a request rarely say which tool); a genomic region also counts as
 * the word `region`.
 */
export const normalizeTerm: (term: string) => string | string[] | null = memo((term) => {
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower) || /^\d+(?:[.,]\d+)*$/.test(lower)) return null;
  return REGION.test(lower) ? [lower, "region"] : stem(lower);
});
