// Private: what one code point of a schema `pattern` matches (the escapes and classes of
// ECMA-262 u-mode: `\d \w \s` and their complements, `[a-z]`, `[^…]`, `\uXXXX`, `\u{…}`, `\p{…}`),
// for the linear-time matcher of _pattern.ts. A class becomes a test on a code point, with an
// ASCII table so the common case is one array read.

import { PatternError } from "./_schema_check_error.ts";

// A pattern the matcher does not run: `message` says what and where.
export { PatternError };

/** Whether a code point is in a set. */
export type CodePointTest = (cp: number) => boolean;

/** The pattern's text, read one code point at a time. */
export class PatternReader {
  pos = 0;
  constructor(readonly src: string) {}
  /** The code point at the cursor, -1 at the end. */
  peek(): number {
    return this.pos < this.src.length ? this.src.codePointAt(this.pos)! : -1;
  }
  next(): number {
    const cp = this.peek();
    if (cp < 0) this.fail("unexpected end");
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }
  eat(text: string): boolean {
    if (!this.src.startsWith(text, this.pos)) return false;
    this.pos += text.length;
    return true;
  }
  fail(what: string): never {
    throw new PatternError(`${what} at offset ${this.pos} of ${JSON.stringify(this.src)}`);
  }
}

/** Sorted [from, to] pairs. */
const inRanges = (pairs: readonly number[]): CodePointTest => (cp) => {
  for (let i = 0; i < pairs.length; i += 2) if (cp >= pairs[i] && cp <= pairs[i + 1]) return true;
  return false;
};
const DIGIT = inRanges([0x30, 0x39]);
const WORD = inRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
// ECMA-262 WhiteSpace and LineTerminator: \t \n \v \f \r, space, NBSP, the Zs separators, BOM.
const SPACE = inRanges([
  ...[0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029],
  ...[0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff],
]);
const not = (test: CodePointTest): CodePointTest => (cp) => !test(cp);

/** `\w` (ASCII, as in u-mode without the i flag): what `\b` looks at. */
export const isWord: CodePointTest = WORD;
/** `.` without the s flag: anything but a line terminator. */
export const DOT: CodePointTest = (cp) => cp !== 0x0a && cp !== 0x0d && (cp | 1) !== 0x2029;

const CLASS_ESCAPES: Record<string, CodePointTest> = {
  d: DIGIT,
  D: not(DIGIT),
  w: WORD,
  W: not(WORD),
  s: SPACE,
  S: not(SPACE),
};
const CONTROL: Record<string, number> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };
const SYNTAX = "^$\\.*+?()[]{}|/";
const hex = (r: PatternReader, digits: number): number => {
  const text = r.src.slice(r.pos, r.pos + digits);
  if (text.length !== digits || !/^[0-9a-fA-F]+$/.test(text)) r.fail("bad hexadecimal escape");
  r.pos += digits;
  return parseInt(text, 16);
};

/** `\p{…}`/`\P{…}`: the property is looked up by the platform for one code point at a time. */
function property(r: PatternReader, negated: boolean): CodePointTest {
  const body = /^\{([A-Za-z0-9_]+(?:=[A-Za-z0-9_]+)?)\}/.exec(r.src.slice(r.pos));
  if (!body) r.fail("bad \\p{…} escape");
  let re: RegExp;
  try {
    re = new RegExp(`^\\p${body[0]}$`, "u");
  } catch {
    r.fail(`unknown Unicode property ${body[1]}`);
  }
  r.pos += body[0].length;
  return (cp) => re.test(String.fromCodePoint(cp)) !== negated;
}

/**
 * The escape after a backslash (already read): a code point, or a test for a class escape.
 * Besides u-mode's escapes, `\` before any ASCII punctuation is that character (as in RE2 and
 * non-u JavaScript: `\-`, `\:`, `\@` are common in schemas). Backreferences are refused.
 */
export function readEscape(r: PatternReader, inClass: boolean): number | CodePointTest {
  const at = r.pos;
  const cp = r.next();
  const ch = String.fromCodePoint(cp);
  if (ch in CLASS_ESCAPES) return CLASS_ESCAPES[ch];
  if (ch === "p" || ch === "P") return property(r, ch === "P");
  if (ch in CONTROL) return CONTROL[ch];
  if (ch === "b" && inClass) return 0x08;
  if (ch === "c" && /[A-Za-z]/.test(r.src[r.pos] ?? "")) return r.next() % 32;
  if (ch === "0" && !/[0-9]/.test(r.src[r.pos] ?? "")) return 0;
  if (ch === "x") return hex(r, 2);
  if (ch === "u") return unicodeEscape(r);
  if (SYNTAX.includes(ch) || (cp < 0x80 && /[!-/:-@[-`{-~]/.test(ch))) return cp;
  r.pos = at;
  if (/[1-9]/.test(ch)) r.fail("backreferences are not supported");
  if (ch === "k") r.fail("named backreferences are not supported");
  return r.fail(`unknown escape \\${ch}`);
}

/** `\uXXXX` (a surrogate pair of two such escapes is one code point) or `\u{…}`. */
function unicodeEscape(r: PatternReader): number {
  if (r.eat("{")) {
    const end = r.src.indexOf("}", r.pos);
    const text = end < 0 ? "" : r.src.slice(r.pos, end);
    if (!/^[0-9a-fA-F]{1,8}$/.test(text) || parseInt(text, 16) > 0x10ffff) {
      r.fail("bad \\u{…} escape");
    }
    r.pos = end + 1;
    return parseInt(text, 16);
  }
  const lead = hex(r, 4);
  if (
    lead >= 0xd800 && lead <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(r.src.slice(r.pos))
  ) {
    r.pos += 2;
    return (lead - 0xd800) * 0x400 + hex(r, 4) - 0xdc00 + 0x10000;
  }
  return lead;
}

/** A class `[…]` or `[^…]`, the `[` already read. */
export function readClass(r: PatternReader): CodePointTest {
  const negated = r.eat("^");
  const pairs: number[] = [];
  const tests: CodePointTest[] = [];
  const atom = (): number | CodePointTest => {
    const cp = r.next();
    return cp === 0x5c ? readEscape(r, true) : cp;
  };
  while (!r.eat("]")) {
    if (r.peek() < 0) r.fail("unterminated character class");
    const from = atom();
    if (r.src[r.pos] === "-" && r.src[r.pos + 1] !== "]" && r.pos + 1 < r.src.length) {
      r.pos++;
      const to = atom();
      if (typeof from !== "number" || typeof to !== "number") r.fail("class escape in a range");
      if (from > to) r.fail("range out of order in character class");
      pairs.push(from, to);
    } else if (typeof from === "number") pairs.push(from, from);
    else tests.push(from);
  }
  const ranges = inRanges(pairs);
  const slow: CodePointTest = (cp) => (ranges(cp) || tests.some((t) => t(cp))) !== negated;
  const ascii = Uint8Array.from({ length: 128 }, (_, cp) => slow(cp) ? 1 : 0);
  return (cp) => cp < 128 ? ascii[cp] === 1 : slow(cp);
}
