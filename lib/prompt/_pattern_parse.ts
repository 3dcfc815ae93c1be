// Private: a schema `pattern` as a tree, for the linear-time matcher of _pattern.ts. The syntax is
// ECMA-262's u-mode, which JSON Schema's validators use (@cfworker/json-schema compiles
// `new RegExp(pattern, "u")`): literals, `.`, classes, `* + ?` and `{n} {n,} {n,m}` (greedy or
// lazy: the same verdict), `^ $ \b \B`, groups (plain, `(?:…)`, `(?<name>…)`) and `|`. A few
// spellings u-mode rejects but RE2 and non-u JavaScript read as literals are accepted too (`\-`,
// a `{` or `}` or `]` that is not syntax). Lookaround and backreferences need backtracking: they
// are refused with a PatternError, as is a group nested deeper than MAX_DEPTH.

import {
  type CodePointTest,
  DOT,
  PatternError,
  PatternReader,
  readClass,
  readEscape,
} from "./_pattern_class.ts";

/** A pattern's tree. Captures do not change a verdict, so groups leave no trace. */
export type PatternNode =
  | { kind: "char"; test: CodePointTest }
  | { kind: "seq"; items: PatternNode[] }
  | { kind: "alt"; items: PatternNode[] }
  | { kind: "repeat"; item: PatternNode; min: number; max: number }
  | { kind: "assert"; at: "^" | "$" | "\\b" | "\\B" };

const MAX_DEPTH = 100;
const QUANTIFIER = /\{(\d+)(,(\d*))?\}/y;

/** The `{n}`, `{n,}` or `{n,m}` at the cursor. */
function counted(r: PatternReader): RegExpExecArray | null {
  QUANTIFIER.lastIndex = r.pos;
  return QUANTIFIER.exec(r.src);
}

/** Parse a u-mode `pattern` (throws PatternError for what the matcher does not run). */
export function parsePattern(pattern: string): PatternNode {
  const r = new PatternReader(pattern);
  const node = disjunction(r, 0);
  if (r.peek() >= 0) r.fail("unmatched )");
  return node;
}

function disjunction(r: PatternReader, depth: number): PatternNode {
  if (depth > MAX_DEPTH) r.fail(`groups nested deeper than ${MAX_DEPTH}`);
  const items = [sequence(r, depth)];
  while (r.eat("|")) items.push(sequence(r, depth));
  return items.length === 1 ? items[0] : { kind: "alt", items };
}

function sequence(r: PatternReader, depth: number): PatternNode {
  const items: PatternNode[] = [];
  for (let cp = r.peek(); cp >= 0 && cp !== 0x7c && cp !== 0x29; cp = r.peek()) {
    const assertion = r.eat("^")
      ? "^"
      : r.eat("$")
      ? "$"
      : r.eat("\\b")
      ? "\\b"
      : r.eat("\\B")
      ? "\\B"
      : undefined;
    if (assertion) items.push({ kind: "assert", at: assertion });
    else items.push(quantified(r, atom(r, depth)));
  }
  return items.length === 1 ? items[0] : { kind: "seq", items };
}

/** The atom followed by its quantifier, if any. */
function quantified(r: PatternReader, item: PatternNode): PatternNode {
  let min: number, max: number;
  const count = counted(r);
  if (r.eat("*")) [min, max] = [0, Infinity];
  else if (r.eat("+")) [min, max] = [1, Infinity];
  else if (r.eat("?")) [min, max] = [0, 1];
  else if (count) {
    r.pos += count[0].length;
    min = Number(count[1]);
    max = count[2] === undefined ? min : count[3] === "" ? Infinity : Number(count[3]);
    if (min > max) r.fail("numbers out of order in {} quantifier");
  } else return item;
  r.eat("?"); // lazy: the same verdict as greedy
  return { kind: "repeat", item, min, max };
}

function atom(r: PatternReader, depth: number): PatternNode {
  const start = r.pos;
  const cp = r.next();
  switch (cp) {
    case 0x2e: // .
      return { kind: "char", test: DOT };
    case 0x5b: // [
      return { kind: "char", test: readClass(r) };
    case 0x5c: { // \
      const escaped = readEscape(r, false);
      return typeof escaped === "number" ? literal(escaped) : { kind: "char", test: escaped };
    }
    case 0x28: // (
      return group(r, depth);
    case 0x2a: // *
    case 0x2b: // +
    case 0x3f: // ?
      r.pos = start;
      return r.fail("nothing to repeat");
    case 0x7b: // { that starts a quantifier here has nothing to repeat
      r.pos = start;
      if (counted(r)) r.fail("nothing to repeat");
      r.pos++;
      return literal(cp);
    default:
      return literal(cp);
  }
}

function group(r: PatternReader, depth: number): PatternNode {
  const open = r.pos - 1;
  if (r.eat("?")) {
    if (r.eat("=") || r.eat("!") || r.eat("<=") || r.eat("<!")) {
      r.pos = open;
      r.fail("lookaround is not supported");
    }
    if (r.eat("<")) {
      const end = r.src.indexOf(">", r.pos);
      if (end <= r.pos) r.fail("bad group name");
      r.pos = end + 1;
    } else if (!r.eat(":")) r.fail("unsupported group (?");
  }
  const inner = disjunction(r, depth + 1);
  if (!r.eat(")")) r.fail("unterminated group");
  return inner;
}

const literal = (cp: number): PatternNode => ({ kind: "char", test: (c) => c === cp });

export { PatternError };
