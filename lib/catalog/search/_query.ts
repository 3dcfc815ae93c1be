// Private: a request read as search terms, with what each word looks like. A request is cut to its
// distinct terms (at most MAX_TERMS, in order), so a long one costs linear time; what a word looks
// like decides what it weighs when no entry holds it (see _evidence.ts):
// - a product name (mixed case `DESeq2`, `AlphaFold`, `GitHub`; a capitalised word inside a
//   sentence after "with", "using", "in", "via") that no entry holds
//   says the request wants something the catalog lacks;
// - a plain word no entry holds ("recipe", "oven") pulls the request away from the catalog's field;
// - identifiers (`BRCA1`, `chr7`, numbers), file types and all-capital acronyms say little either
//   way.

import { BoundedCache } from "../../_bounded_cache.ts";
import { normalizeTerm, tokenGroups } from "./_terms.ts";

/** Most distinct terms of a request read (the rest are ignored: bounded, linear work). */
export const MAX_TERMS = 400;
/** Most characters of a request read. */
export const MAX_CHARS = 200_000;

/** What a word of the request looks like (see the top of this file). */
export type WordShape = "product" | "word" | "acronym" | "id" | "file";

/** One distinct term of a request. */
export interface QueryTerm {
  /** The normalised term. */
  term: string;
  /** The request's own word it came from. */
  word: string;
  shape: WordShape;
  /** The term joins two of the request's words (`mind map` → mindmap). */
  joined?: boolean;
  /** The term is a part of a compound word (`seq2` of `DESeq2`), not a whole word. */
  part?: boolean;
  /**
   * A product that reads as a tool's name: brought in by "with", "using", … (`with CHOPCHOP`) or
   * mixed case with digits (`DESeq2`); not a platform or a molecule (`PacBio`, `rRNA`).
   */
  tool?: boolean;
}

/** Whether `token` of shape `shape` after `after` reads as a tool's name (see `QueryTerm.tool`). */
function toolOf(token: string, after: string, initial: boolean, shape: WordShape): boolean {
  if (shape !== "product") return false;
  return /\d/.test(token) || (/^\p{Lu}/u.test(token) && !initial && INTRO.test(after));
}

const INTRO = /^(?:with|using|via|through|use)$/i;

function shapeOf(token: string, after: string, initial: boolean): WordShape {
  if (token.startsWith(".")) return "file";
  if (/\d/.test(token)) {
    // Letters and digits: a gene or a sample id (BRCA1, S1, chr7) unless it mixes cases (DESeq2).
    return /\p{Ll}\p{Lu}|\p{Lu}{2,}\p{Ll}/u.test(token) ? "product" : "id";
  }
  // A nucleotide sequence (an adapter, a primer) is data, not an acronym.
  if (/^[ACGTUN]{8,}$/.test(token)) return "id";
  // A capitalised word or an acronym brought in by "with", "using", … is a tool (`with CHOPCHOP`).
  const introduced = /^\p{Lu}/u.test(token) && !initial && INTRO.test(after);
  if (/^\p{Lu}{2,}(?:['’]?s)?$/u.test(token)) return introduced ? "product" : "acronym"; // UMIs
  if (/\p{Ll}\p{Lu}|\p{Lu}{2,}\p{Ll}/u.test(token)) return "product"; // AlphaFold, DESeq, iPhone
  if (introduced) return "product";
  return "word";
}

/** The last requests read (a selection ranks the same request for skills, tools, held entries). */
const recent = new BoundedCache<string, readonly QueryTerm[]>(8);

/** The distinct terms of `query`, in order, each with the shape of the word it came from. */
export function analyzeQuery(query: string): readonly QueryTerm[] {
  let terms = recent.get(query);
  if (!terms) {
    recent.set(query, terms = read(query));
  }
  return terms;
}

function read(query: string): QueryTerm[] {
  const text = query.length > MAX_CHARS ? query.slice(0, MAX_CHARS) : query;
  const out: QueryTerm[] = [];
  const seen = new Set<string>();
  const pairs = new Set<string>();
  let previous = "";
  let previousWord: string | null = null;
  let end = 0;
  for (const { token, index, pieces } of tokenGroups(text)) {
    const gap = end;
    const after = previous;
    end = index + token.length;
    previous = token;
    // A word's shape only matters for a new term: most words of a long request are repeats.
    let shape: WordShape | undefined;
    let tool = false;
    const shapeNow = (): WordShape => {
      if (shape) return shape;
      const g = text.slice(gap, index);
      const initial = gap === 0 ? g.trim() === "" : /[.!?:;\n]\s*["'“(]?\s*$/.test(g);
      shape = pieces.length === 1 && pieces[0].startsWith(".")
        ? "file"
        : shapeOf(token, after, initial);
      tool = toolOf(token, after, initial, shape);
      return shape;
    };
    for (const [i, piece] of pieces.entries()) {
      const normal = normalizeTerm(piece);
      if (normal === null) continue;
      for (const term of typeof normal === "string" ? [normal] : normal) {
        if (term.length < 2 || seen.has(term)) continue;
        seen.add(term);
        const own = piece.startsWith(".") ? "file" : shapeNow();
        out.push({
          term,
          word: piece.replace(/^\./, ""),
          shape: term === "region" ? "id" : own,
          ...(i > 0 && pieces[0] === token ? { part: true } : {}),
          ...(tool && own === "product" ? { tool: true } : {}),
        });
      }
    }
    const word = /^\p{L}+$/u.test(token) && normalizeTerm(token) !== null
      ? token.toLowerCase()
      : null;
    // Two words that are one term elsewhere: "mind map" → mindmap.
    if (previousWord !== null && word !== null) {
      const pair = previousWord + word;
      if (!pairs.has(pair)) {
        pairs.add(pair);
        const joined = normalizeTerm(pair);
        if (typeof joined === "string" && !seen.has(joined)) {
          seen.add(joined);
          out.push({ term: joined, word: `${previousWord} ${token}`, shape: "word", joined: true });
        }
      }
    }
    previousWord = word;
    if (out.length >= MAX_TERMS) break;
  }
  return out;
}
