// Private: reads `## Concepts`, `## Pitfalls` and `## Examples` from a body.
//
// Unlike oxo-call, any other `#` or `##` heading ends the current section, so
// bullets under a later `## Notes` never leak into the section before it.
// Lines inside fenced code blocks are never headings, bullets or markers.

import type { Skill, SkillExample } from "./types.ts";
import type { Report } from "./_report.ts";
import { quote } from "./_location.ts";
import { commandProblem } from "./_command.ts";

/** The structured sections of a skill. */
export type Sections = Pick<Skill, "concepts" | "pitfalls" | "examples">;

type SectionName = "concepts" | "pitfalls" | "examples";

const SECTIONS: Record<string, SectionName> = {
  concepts: "concepts",
  pitfalls: "pitfalls",
  examples: "examples",
};
// The `s` flag: `.` must also match U+2028 and U+2029, which are not line breaks here.
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/s;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const BULLET = /^[-*](?:[ \t]+(.*))?$/s;
/** `**Command:**`, `**Args:**` or `**Explanation:**` (colon inside, outside or both), at a position. */
const MARKER = /\*\*(command|args|explanation):?\*\*:?/iy;

interface Draft {
  task: string;
  line: number;
  args?: string;
  explanation?: string;
  /** The `**Command:**` of the example and its line, when it has one. */
  command?: { text: string; line: number };
  /** The line of `**Args:**`. */
  argsLine?: number;
  /** Whether the next plain line continues the explanation. */
  open: boolean;
  /** Whether any `**Command:**`, `**Args:**` or `**Explanation:**` marker was seen. */
  marked?: boolean;
}

/** Where a kept example's `**Args:**` line is, and whether it has a `**Command:**` line. */
export interface ExampleSpan {
  argsLine: number;
  hasCommand: boolean;
}

/**
 * Reads the sections of `body`, whose first line is line `bodyLine` of the
 * original text; `spans`, when given, receives where each kept example is.
 */
export function readSections(
  body: string,
  bodyLine: number,
  report: Report,
  spans?: ExampleSpan[],
): Sections {
  const out: Sections = { concepts: [], pitfalls: [], examples: [] };
  let section: SectionName | undefined;
  let bullet: { list: string[]; text: string } | undefined;
  let draft: Draft | undefined;
  let fence: { char: string; length: number } | undefined;

  const endBullet = () => {
    if (bullet !== undefined && bullet.text !== "") bullet.list.push(bullet.text);
    bullet = undefined;
  };
  const endExample = () => {
    if (draft !== undefined && keepExample(draft, out.examples, report)) {
      spans?.push({ argsLine: draft.argsLine!, hasCommand: draft.command !== undefined });
    }
    draft = undefined;
  };

  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      const close = CLOSING_FENCE.exec(line)?.[1];
      if (close?.[0] === fence.char && close.length >= fence.length) fence = undefined;
      continue;
    }
    const opened = FENCE.exec(line)?.[1];
    if (opened !== undefined) {
      endBullet();
      if (draft) draft.open = false;
      fence = { char: opened[0]!, length: opened.length };
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      endBullet();
      const level = heading[1]!.length;
      const title = (heading[2] ?? "").trim();
      if (level <= 2) {
        endExample();
        section = level === 2 ? SECTIONS[title.toLowerCase()] : undefined;
      } else if (level === 3 && section === "examples") {
        endExample();
        draft = { task: title, line: bodyLine + i, open: false };
      } else if (draft) {
        draft.open = false;
      }
      continue;
    }
    if (section === "concepts" || section === "pitfalls") {
      const item = BULLET.exec(line);
      if (item !== null) {
        endBullet();
        bullet = { list: out[section], text: (item[1] ?? "").trim() };
      } else if (bullet !== undefined && /^[ \t]+\S/.test(line)) {
        bullet.text = bullet.text === "" ? line.trim() : `${bullet.text} ${line.trim()}`;
      } else {
        endBullet();
      }
    } else if (section === "examples" && draft !== undefined) {
      readExampleLine(draft, line, bodyLine + i);
    }
  }
  endBullet();
  endExample();
  return out;
}

type Marker = "command" | "args" | "explanation";

/**
 * The markers of a line and the text each one carries, when the line starts with one:
 * `**Args:** \`x\` **Explanation:** y` on one line is two segments, as docs/skills.md writes it.
 * Markers inside a code span (`` `**Args:**` ``) are text.
 */
export function markerSegments(line: string): Array<{ marker: Marker; text: string }> | undefined {
  const starts: Array<{ marker: Marker; at: number; end: number }> = [];
  let i = /^[ \t]*/.exec(line)![0].length;
  const first = i;
  while (i < line.length) {
    if (line[i] === "`") {
      const run = /^`+/.exec(line.slice(i))![0];
      const close = line.indexOf(run, i + run.length);
      // An unclosed run is literal text, as in CommonMark.
      i = close === -1 ? i + run.length : close + run.length;
      continue;
    }
    MARKER.lastIndex = i;
    const found = MARKER.exec(line);
    if (found !== null) {
      starts.push({ marker: found[1]!.toLowerCase() as Marker, at: i, end: MARKER.lastIndex });
      i = MARKER.lastIndex;
    } else i++;
  }
  if (starts[0]?.at !== first) return undefined;
  return starts.map((s, k) => ({
    marker: s.marker,
    text: line.slice(s.end, starts[k + 1]?.at ?? line.length),
  }));
}

function readExampleLine(draft: Draft, line: string, at: number): void {
  const segments = markerSegments(line);
  if (segments === undefined) {
    const text = line.trim();
    if (text === "") draft.open = false;
    else if (draft.open) {
      draft.explanation = draft.explanation === "" ? text : `${draft.explanation} ${text}`;
    }
    return;
  }
  for (const { marker, text } of segments) {
    draft.marked = true;
    if (marker === "command") {
      draft.command ??= { text: unwrapCode(text), line: at };
      draft.open = false;
    } else if (marker === "args") {
      if (draft.args === undefined) {
        draft.args = unwrapCode(text);
        draft.argsLine = at;
      }
      draft.open = false;
    } else if (draft.explanation === undefined) {
      draft.explanation = text.trim();
      draft.open = true;
    }
  }
}

/** Adds the example of `draft` to `examples` if it is complete; says whether it did. */
function keepExample(draft: Draft, examples: SkillExample[], report: Report): boolean {
  const missing = [
    draft.task === "" ? "a task" : "",
    draft.args === undefined ? "**Args:**" : "",
    draft.explanation === undefined ? "**Explanation:**" : "",
  ].filter(Boolean);
  if (missing.length === 0) {
    const example: SkillExample = {
      task: draft.task,
      args: draft.args!,
      explanation: draft.explanation!,
    };
    const command = draft.command;
    const problem = command === undefined ? undefined : commandProblem(command.text);
    if (problem !== undefined) {
      report.error(`the **Command:** of example ${quote(draft.task)} ${problem}`, {
        line: command!.line,
        field: "examples",
      });
    } else if (command !== undefined) example.command = command.text;
    examples.push(example);
    return true;
  }
  // A `### …` under `## Examples` with no marker at all is prose (an Agent Skills body's own
  // examples), not a worked example of this format: nothing to warn about.
  if (draft.marked !== true) return false;
  report.warn(
    `example ${quote(draft.task)} has no ${missing.join(" and no ")}; it was left out`,
    { line: draft.line, field: "examples" },
  );
  return false;
}

/** The text of an inline code span `` `…` `` (or the text itself, oxo-style trimmed). */
export function unwrapCode(raw: string): string {
  const text = raw.trim();
  const open = /^`+/.exec(text)?.[0].length ?? 0;
  const close = /`+$/.exec(text)?.[0].length ?? 0;
  if (open > 0 && open === close && text.length > 2 * open) {
    const inner = text.slice(open, -open);
    return inner.length >= 2 && inner.startsWith(" ") && inner.endsWith(" ") && inner.trim() !== ""
      ? inner.slice(1, -1)
      : inner;
  }
  return text.replace(/^`+|`+$/g, "").trim();
}
