// Private: checks front-matter fields (from YAML or TOML) and builds the
// header part of a skill. Problems go to the report; the caller finishes it.

import type { Skill } from "./types.ts";
import { assertSkillName, isValidSkillName } from "./name.ts";
import { defineData, kindName, type RawField, type RawValue } from "./_raw.ts";
import type { Report } from "./_report.ts";
import { quote } from "./_location.ts";
import { commandProblem } from "./_command.ts";
import { KNOWN_KEYS, splitTools } from "./_keys.ts";

/** The front-matter part of a skill. */
export type Header = Pick<
  Skill,
  | "name"
  | "description"
  | "category"
  | "tags"
  | "author"
  | "sourceUrl"
  | "minVersion"
  | "maxVersion"
  | "command"
  | "checkedVersion"
  | "license"
  | "compatibility"
  | "metadata"
  | "allowedTools"
  | "meta"
  | "declaredName"
>;

/** Front-matter keys this library reads, mapped to `Skill` properties. */
const OPTIONAL_STRINGS = {
  category: "category",
  author: "author",
  source_url: "sourceUrl",
  checked_version: "checkedVersion",
  min_version: "minVersion",
  max_version: "maxVersion",
  license: "license",
  compatibility: "compatibility",
} as const;

const DESCRIPTION_MAX = 1024;
const COMPATIBILITY_MAX = 500;

/** Checks `fields` and builds a header; `expectedName` comes from the file or folder name. */
export function readHeader(
  fields: readonly RawField[],
  report: Report,
  expectedName: string | undefined,
): Header {
  const byKey = new Map<string, RawField>();
  for (const field of fields) if (!byKey.has(field.key)) byKey.set(field.key, field);
  const named = readName(byKey.get("name"), report, expectedName);
  const header: Header = {
    name: named?.name ?? "",
    description: readDescription(byKey.get("description"), report),
    tags: readList(byKey.get("tags"), report, /,/),
    metadata: readMetadata(byKey.get("metadata"), report),
    allowedTools: readList(byKey.get("allowed-tools"), report, splitTools),
    meta: {},
  };
  if (named?.declared !== undefined) header.declaredName = named.declared;
  for (const [key, prop] of Object.entries(OPTIONAL_STRINGS)) {
    const text = readString(byKey.get(key), report);
    if (text !== undefined && text.trim() !== "") header[prop] = text;
  }
  const command = readCommand(byKey.get("command"), report);
  if (command !== undefined) header.command = command;
  if ((header.compatibility?.length ?? 0) > COMPATIBILITY_MAX) {
    const field = byKey.get("compatibility");
    report.warn(`field "compatibility" is longer than ${COMPATIBILITY_MAX} characters`, {
      line: field?.line,
      field: "compatibility",
    });
  }
  for (const field of fields) {
    if (KNOWN_KEYS.includes(field.key)) continue;
    defineData(header.meta, field.key, field.toJS());
    report.warn(`field ${quote(field.key)} is not a known skill field; it is kept in meta`, {
      line: field.line,
      field: field.key,
    });
  }
  return header;
}

/** The name a skill loads under, and the name its front matter declared when that differs. */
interface Named {
  name: string;
  declared?: string;
}

/**
 * The `name` field. Lenient as the Agent Skills client guide asks: a display name (`Ahrefs
 * Automation`) or a name that differs from the file or folder loads under the folder's name, with
 * a warning (an error when strict). Without a valid folder name, an invalid `name` is an error.
 */
function readName(
  field: RawField | undefined,
  report: Report,
  expected: string | undefined,
): Named | undefined {
  const valid = expected !== undefined && isValidSkillName(expected) ? expected : undefined;
  const given = field?.value.kind === "scalar" ? field.value.text : undefined;
  if (given === undefined) {
    const wrongKind = field !== undefined && field.value.kind !== "null";
    const what = wrongKind
      ? `field "name" must be a string, not ${kindName(field!.value)}`
      : 'field "name" is missing';
    if (valid === undefined) {
      return void report.error(
        expected === undefined
          ? what
          : `${what} and the expected name ${quote(expected)} is not a valid skill name`,
        at(field, "name"),
      );
    }
    report.skill = valid;
    report.warn(`${what}; using the folder name ${quote(valid)}`, at(field, "name"));
    return { name: valid };
  }
  let problem: unknown;
  try {
    assertSkillName(given);
  } catch (error) {
    problem = error;
  }
  if (problem !== undefined) {
    const detail = `field "name": ${(problem as Error).message}`;
    if (valid === undefined) return void report.error(detail, at(field, "name"), problem);
    report.skill = valid;
    report.warn(
      `field "name" is ${quote(given)}, which is not a skill name (1-64 lowercase letters, ` +
        `digits and single hyphens); loaded under the folder name ${quote(valid)}`,
      at(field, "name"),
    );
    return { name: valid, declared: given };
  }
  if (valid !== undefined && valid !== given) {
    report.skill = valid;
    report.warn(
      `field "name" is ${quote(given)} but the file or folder name says ${quote(valid)}; ` +
        `loaded as ${quote(valid)} (the Agent Skills specification wants them equal)`,
      at(field, "name"),
    );
    return { name: valid, declared: given };
  }
  report.skill = given;
  return { name: given };
}

/** The `command` field: the program as typed, checked by {@linkcode commandProblem}. */
function readCommand(field: RawField | undefined, report: Report): string | undefined {
  const text = readString(field, report)?.trim();
  if (text === undefined || text === "") return undefined;
  const problem = commandProblem(text);
  if (problem === undefined) return text;
  return void report.error(`field "command" ${problem}`, at(field, "command"));
}

function readDescription(field: RawField | undefined, report: Report): string {
  if (field === undefined || field.value.kind === "null") {
    report.error('field "description" is missing', at(field, "description"));
    return "";
  }
  if (field.value.kind !== "scalar") {
    report.error(
      `field "description" must be a string, not ${kindName(field.value)}`,
      at(field, "description"),
    );
    return "";
  }
  const text = field.value.text;
  if (text.trim() === "") {
    report.error('field "description" must not be empty', at(field, "description"));
  } else if (text.length > DESCRIPTION_MAX) {
    report.warn(
      `field "description" is ${text.length} characters, longer than the ${DESCRIPTION_MAX} ` +
        "the Agent Skills specification allows",
      at(field, "description"),
    );
  }
  return text;
}

/**
 * A string field: `undefined` when absent, empty or of the wrong kind. A wrong kind is a warning
 * (the field is left out; an error when strict): only the description is required.
 */
function readString(field: RawField | undefined, report: Report): string | undefined {
  if (field === undefined || field.value.kind === "null") return undefined;
  if (field.value.kind === "scalar") return field.value.text;
  report.warn(
    `field ${quote(field.key)} must be a string, not ${kindName(field.value)}; it is ignored`,
    at(field, field.key),
  );
  return undefined;
}

/** A list of strings, also given as one string split by `separator`. */
function readList(
  field: RawField | undefined,
  report: Report,
  separator: RegExp | ((text: string) => string[]),
): string[] {
  if (field === undefined || field.value.kind === "null") return [];
  const value = field.value;
  if (value.kind === "scalar") {
    const parts = typeof separator === "function"
      ? separator(value.text)
      : value.text.split(separator);
    return parts.map(trim).filter(Boolean);
  }
  if (value.kind === "map") {
    report.warn(
      `field ${quote(field.key)} must be a list of strings, not a map; it is ignored`,
      at(field, field.key),
    );
    return [];
  }
  const out: string[] = [];
  value.items.forEach((item: RawValue, index: number) => {
    if (item.kind === "scalar") {
      if (item.text.trim() !== "") out.push(item.text.trim());
    } else if (item.kind !== "null") {
      report.warn(
        `field ${quote(field.key)} must be a list of strings; item ${index + 1} is ${
          kindName(item)
        } and is left out`,
        { line: item.line ?? field.line, field: field.key },
      );
    }
  });
  return out;
}

/**
 * The `metadata` map. The specification wants string values; other values (a list, a map) are
 * kept as their JSON text with a warning, as the reference parser stringifies them.
 */
function readMetadata(field: RawField | undefined, report: Report): Record<string, string> {
  const out: Record<string, string> = {};
  if (field === undefined || field.value.kind === "null") return out;
  if (field.value.kind !== "map") {
    report.warn(
      `field "metadata" must be a map of strings, not ${kindName(field.value)}; it is ignored`,
      at(field, "metadata"),
    );
    return out;
  }
  for (const entry of field.value.entries) {
    const name = `metadata.${entry.key}`;
    const value = entry.value;
    if (value.kind === "scalar" || value.kind === "null") {
      defineData(out, entry.key, value.kind === "scalar" ? value.text : "");
    } else {
      defineData(out, entry.key, JSON.stringify(entry.toJS()) ?? "");
      report.warn(
        `field ${quote(name)} is ${kindName(value)}, not a string; kept as its JSON text`,
        { line: value.line ?? entry.line, field: name },
      );
    }
  }
  return out;
}

function at(field: RawField | undefined, key: string): { line?: number; field: string } {
  return { line: field?.line ?? field?.value.line, field: key };
}

function trim(text: string): string {
  return text.trim();
}
