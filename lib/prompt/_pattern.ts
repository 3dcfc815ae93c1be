// Private: decide a JSON Schema `pattern` against a string in time linear in the string times
// the pattern: a Thompson NFA run as a Pike VM (every thread advances one code point together,
// at most one thread per instruction, no backtracking), so `^(a+)+$` or `(a|a)*b` cannot freeze
// the process the way they freeze a backtracking engine. The search is unanchored, as ECMA-262
// (and so JSON Schema) reads `pattern`: `^` and `$` anchor only where written. The syntax is
// parsed by _pattern_parse.ts; what it refuses (lookaround, backreferences) and programs over
// MAX_PROGRAM instructions (`(a{1000}){1000}`) throw PatternError.

import { isWord, PatternError } from "./_pattern_class.ts";
import { parsePattern, type PatternNode } from "./_pattern_parse.ts";

const CHAR = 0, SPLIT = 1, ASSERT = 2, MATCH = 3;
/** One instruction: CHAR (test, next) | SPLIT (next, alt) | ASSERT (at, next) | MATCH. */
interface Instruction {
  op: number;
  test?: (cp: number) => boolean;
  at?: string;
  next: number;
  alt: number;
}

/** Most instructions of one compiled pattern: bounds the work per code point of input. */
export const MAX_PROGRAM = 10_000;

/**
 * A compiled pattern: `test` decides a string, or gives undefined once its work passes `maxSteps`
 * (at most the text's length times `size`, which a bounded repeat like `{0,1000}` makes large);
 * `steps` is the work of the last `test`.
 */
export interface PatternMatcher {
  test(text: string, maxSteps?: number): boolean | undefined;
  readonly steps: number;
  readonly size: number;
}

/** Emit the program for `node` backwards: each piece is built knowing where it continues. */
function emit(node: PatternNode, next: number, program: Instruction[]): number {
  const push = (instruction: Instruction) => {
    if (program.length >= MAX_PROGRAM) {
      throw new PatternError(`the pattern needs over ${MAX_PROGRAM} instructions`);
    }
    return program.push(instruction) - 1;
  };
  switch (node.kind) {
    case "char":
      return push({ op: CHAR, test: node.test, next, alt: -1 });
    case "assert":
      return push({ op: ASSERT, at: node.at, next, alt: -1 });
    case "seq":
      return node.items.reduceRight((to, item) => emit(item, to, program), next);
    case "alt":
      return node.items.map((item) => emit(item, next, program))
        .reduceRight((rest, start) => push({ op: SPLIT, next: start, alt: rest }));
    case "repeat": {
      let start = next;
      if (node.max === Infinity) {
        const loop = push({ op: SPLIT, next: -1, alt: next });
        program[loop].next = emit(node.item, loop, program);
        start = loop;
      } else {
        for (let i = node.min; i < node.max; i++) {
          start = push({ op: SPLIT, next: emit(node.item, start, program), alt: next });
        }
      }
      for (let i = 0; i < node.min; i++) start = emit(node.item, start, program);
      return start;
    }
  }
}

/** Compile `pattern` (throws PatternError when it is outside what the matcher runs). */
export function compilePattern(pattern: string): PatternMatcher {
  const program: Instruction[] = [{ op: MATCH, next: -1, alt: -1 }];
  const start = emit(parsePattern(pattern), 0, program);
  const n = program.length;
  const seen = new Uint32Array(n);
  let generation = 0;
  let steps = 0;
  const test = (text: string, maxSteps = Infinity): boolean | undefined => {
    steps = 0;
    let now: number[] = [];
    for (let i = 0, prev = -1;;) {
      const cp = i < text.length ? text.codePointAt(i)! : -1;
      // The closure at position i: follow SPLIT and ASSERT, collect the CHAR threads.
      if (++generation === 0xffffffff) seen.fill(0), generation = 1;
      const stack = [...now, start];
      const chars: number[] = [];
      while (stack.length > 0) {
        const pc = stack.pop()!;
        if (++steps > maxSteps) return undefined;
        if (seen[pc] === generation) continue;
        seen[pc] = generation;
        const ins = program[pc];
        if (ins.op === CHAR) chars.push(pc);
        else if (ins.op === SPLIT) stack.push(ins.alt, ins.next);
        else if (ins.op === MATCH) return true;
        else if (holds(ins.at!, i, prev, cp)) stack.push(ins.next);
      }
      if (cp < 0) return false;
      now = [];
      for (const pc of chars) {
        steps++;
        if (program[pc].test!(cp)) now.push(program[pc].next);
      }
      prev = cp;
      i += cp > 0xffff ? 2 : 1;
    }
  };
  return {
    test,
    get steps() {
      return steps;
    },
    size: n,
  };
}

/** Whether an assertion holds between `prev` and `cp` (-1 at either end) at offset `i`. */
function holds(at: string, i: number, prev: number, cp: number): boolean {
  if (at === "^") return i === 0;
  if (at === "$") return cp < 0;
  const boundary = (prev >= 0 && isWord(prev)) !== (cp >= 0 && isWord(cp));
  return at === "\\b" ? boundary : !boundary;
}

export { PatternError };
