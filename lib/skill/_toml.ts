// Private: the legacy oxo-call TOML layout, read with `smol-toml`:
// [meta] name category description tags author source_url min_version max_version
// [context] concepts pitfalls
// [[examples]] task args explanation command

import type * as Toml from "smol-toml";

let T: typeof Toml | undefined;

/** Load `smol-toml` on first use (legacy TOML skills are rare); {@linkcode readToml} needs it. */
export async function loadToml(): Promise<void> {
  T ??= await import("smol-toml");
}
import type { SkillExample } from "./types.ts";
import type { RawField, RawValue } from "./_raw.ts";
import { toPlain } from "./_raw.ts";
import type { Report } from "./_report.ts";
import type { Sections } from "./_sections.ts";
import { quote } from "./_location.ts";
import { isValidSkillName } from "./name.ts";
import { commandProblem } from "./_command.ts";

/** What a legacy TOML skill holds, before the shared field rules run. */
export interface TomlSkill {
  /** `[meta]` keys, then any unknown top-level keys (kept in `skill.meta`). */
  fields: RawField[];
  sections: Sections;
}

const KEY_LINE = /^[ \t]*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*=(.*)$/s;
const HEADER = /^[ \t]*\[\[?[ \t]*([^\]]*?)[ \t]*\]\]?[ \t]*(?:#.*)?$/s;

/** Parses a normalised TOML text; fatal problems throw through `report`. */
export function readToml(text: string, report: Report): TomlSkill {
  let root: Record<string, unknown>;
  try {
    root = T!.parse(text) as Record<string, unknown>;
  } catch (error) {
    const peeked = /^[ \t]*name[ \t]*=[ \t]*["']([^"'\n]*)["']/m.exec(text)?.[1];
    if (isValidSkillName(peeked)) report.skill = peeked;
    const line = (error as { line?: unknown }).line;
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    return report.fail(
      `not valid TOML: ${message.replace(/^Invalid TOML document: /, "")}`,
      { line: typeof line === "number" ? line : undefined },
      error,
    );
  }
  const lines = text.split("\n");
  const keyLines = indexKeys(lines);
  const meta = root.meta;
  if (!isTable(meta)) {
    report.fail("a legacy TOML skill needs a [meta] table", { field: "meta" });
  }
  if (isValidSkillName(meta.name)) report.skill = meta.name;
  const fields = Object.keys(meta).map((key) =>
    field(key, meta[key], keyLines.get(`meta.${key}`), lines)
  );
  for (const key of Object.keys(root)) {
    if (key === "meta" || key === "context" || key === "examples") continue;
    fields.push(field(key, root[key], keyLines.get(key) ?? keyLines.get(`[${key}]`), lines));
  }
  return { fields, sections: readTomlSections(root, keyLines, report) };
}

function readTomlSections(
  root: Record<string, unknown>,
  keyLines: Map<string, number>,
  report: Report,
): Sections {
  const context = root.context ?? {};
  const sections: Sections = { concepts: [], pitfalls: [], examples: [] };
  if (!isTable(context)) {
    report.error("[context] must be a table", { line: keyLines.get("context"), field: "context" });
  } else {
    for (const list of ["concepts", "pitfalls"] as const) {
      const name = `context.${list}`;
      const value = context[list] ?? [];
      if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
        sections[list] = value.map((v: string) => v.trim()).filter(Boolean);
      } else {
        report.error(`field ${quote(name)} must be a list of strings`, {
          line: keyLines.get(name),
          field: name,
        });
      }
    }
  }
  const examples = root.examples ?? [];
  if (!Array.isArray(examples)) {
    report.error("examples must be an array of tables ([[examples]])", {
      line: keyLines.get("examples"),
      field: "examples",
    });
    return sections;
  }
  examples.forEach((entry: unknown, index: number) => {
    const line = keyLines.get(`[[examples]]#${index}`);
    const at = { line, field: `examples[${index}]` };
    if (!isTable(entry)) return report.error("each [[examples]] entry must be a table", at);
    const parts: Partial<SkillExample> = {};
    for (const part of ["task", "args", "explanation"] as const) {
      const value = entry[part];
      if (typeof value === "string") parts[part] = part === "explanation" ? value.trim() : value;
      else if (value !== undefined) report.error(`field "${part}" must be a string`, at);
    }
    const missing = (["task", "args", "explanation"] as const).filter((p) =>
      parts[p] === undefined || (p === "task" && parts.task!.trim() === "")
    );
    if (missing.length > 0) {
      return report.warn(
        `example ${quote(parts.task ?? String(index + 1))} has no ${missing.join(" and no ")}; ` +
          "it was left out",
        at,
      );
    }
    const example: SkillExample = {
      task: parts.task!.trim(),
      args: parts.args!.trim(),
      explanation: parts.explanation!,
    };
    const command = entry.command;
    if (typeof command === "string" && commandProblem(command.trim()) === undefined) {
      example.command = command.trim();
    } else if (command !== undefined) {
      const problem = typeof command === "string"
        ? commandProblem(command.trim())
        : "must be a string";
      report.error(`field "command" of example ${quote(example.task)} ${problem}`, at);
    }
    sections.examples.push(example);
  });
  return sections;
}

function field(key: string, value: unknown, line: number | undefined, lines: string[]): RawField {
  const source = line === undefined ? undefined : KEY_LINE.exec(lines[line - 1]!)?.[4];
  return { key, line, value: raw(value, line, source, 1), toJS: () => toPlain(value) };
}

function raw(
  value: unknown,
  line: number | undefined,
  source: string | undefined,
  depth: number,
): RawValue {
  if (value === null || value === undefined) return { kind: "null", line };
  if (typeof value === "string") return { kind: "scalar", text: value, line };
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    const text = source?.replace(/#.*$/s, "").trim();
    return { kind: "scalar", text: text || String(value), line };
  }
  if (value instanceof Date) return { kind: "scalar", text: value.toISOString(), line };
  if (Array.isArray(value)) {
    const items = depth > 0 ? value.map((v) => raw(v, line, undefined, 0)) : [];
    return { kind: "list", items, line };
  }
  const table = value as Record<string, unknown>;
  const entries = depth > 0
    ? Object.keys(table).map((key) => ({
      key,
      line,
      value: raw(table[key], line, undefined, 0),
      toJS: () => toPlain(table[key]),
    }))
    : [];
  return { kind: "map", entries, line };
}

/**
 * 1-based lines of simple `key = value` lines by `table.key`, of table headers
 * by `[table]`, and of the n-th `[[examples]]` by `[[examples]]#n`.
 */
function indexKeys(lines: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  let table = "";
  let examples = 0;
  lines.forEach((line, index) => {
    const header = HEADER.exec(line);
    if (header !== null) {
      table = header[1]!;
      const isArray = line.trim().startsWith("[[");
      const label = isArray
        ? `[[${table}]]#${table === "examples" ? examples++ : 0}`
        : `[${table}]`;
      if (!out.has(label)) out.set(label, index + 1);
      if (!out.has(table)) out.set(table, index + 1);
      return;
    }
    const key = KEY_LINE.exec(line);
    if (key === null) return;
    const name = key[1] ?? key[2] ?? key[3]!;
    const path = table === "" ? name : `${table}.${name}`;
    if (!out.has(path)) out.set(path, index + 1);
  });
  return out;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date);
}
