// Private: reads `## Concepts`, `## Pitfalls` and `## Examples` from a body.
//
// Unlike oxo-call, any other `#` or `##` heading ends the current section, so
// bullets under a later `## Notes` never leak into the section before it.
// Lines inside fenced code blocks are never headings, bullets or markers.

import type { Skill, SkillExample } from "./types.ts";
import type { Report } from "./_report.ts";
import { quote } from "./_location.ts";

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
const ARGS = /^[ \t]*\*\*args:?\*\*:?(.*)$/is;
const EXPLANATION = /^[ \t]*\*\*explanation:?\*\*:?(.*)$/is;

interface Draft {
  task: string;
  line: number;
  args?: string;
  explanation?: string;
  /** Whether the next plain line continues the explanation. */
  open: boolean;
}

/** Reads the sections of `body`, whose first line is line `bodyLine` of the original text. */
export function readSections(body: string, bodyLine: number, report: Report): Sections {
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
    if (draft !== undefined) keepExample(draft, out.examples, report);
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
      readExampleLine(draft, line);
    }
  }
  endBullet();
  endExample();
  return out;
}

function readExampleLine(draft: Draft, line: string): void {
  const args = ARGS.exec(line);
  if (args !== null) {
    draft.args ??= unwrapCode(args[1]!);
    draft.open = false;
    return;
  }
  const explanation = EXPLANATION.exec(line);
  if (explanation !== null) {
    if (draft.explanation === undefined) {
      draft.explanation = explanation[1]!.trim();
      draft.open = true;
    }
    return;
  }
  const text = line.trim();
  if (text === "") draft.open = false;
  else if (draft.open) {
    draft.explanation = draft.explanation === "" ? text : `${draft.explanation} ${text}`;
  }
}

function keepExample(draft: Draft, examples: SkillExample[], report: Report): void {
  const missing = [
    draft.task === "" ? "a task" : "",
    draft.args === undefined ? "**Args:**" : "",
    draft.explanation === undefined ? "**Explanation:**" : "",
  ].filter(Boolean);
  if (missing.length === 0) {
    examples.push({ task: draft.task, args: draft.args!, explanation: draft.explanation! });
    return;
  }
  report.warn(
    `example ${quote(draft.task)} has no ${missing.join(" and no ")}; it was left out`,
    { line: draft.line, field: "examples" },
  );
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
