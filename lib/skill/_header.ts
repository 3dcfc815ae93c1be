// Private: checks front-matter fields (from YAML or TOML) and builds the
// header part of a skill. Problems go to the report; the caller finishes it.

import type { Skill } from "./types.ts";
import { assertSkillName, isValidSkillName } from "./name.ts";
import { defineData, kindName, type RawField, type RawValue } from "./_raw.ts";
import type { Report } from "./_report.ts";
import { quote } from "./_location.ts";
import { commandProblem } from "./_command.ts";

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

/** Every front-matter key with a meaning, in the order {@linkcode renderSkill} writes them. */
export const KNOWN_KEYS: readonly string[] = [
  "name",
  "description",
  "category",
  "tags",
  "author",
  "source_url",
  "command",
  "checked_version",
  "min_version",
  "max_version",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
];

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
  const header: Header = {
    name: readName(byKey.get("name"), report, expectedName) ?? "",
    description: readDescription(byKey.get("description"), report),
    tags: readList(byKey.get("tags"), report, /,/),
    metadata: readMetadata(byKey.get("metadata"), report),
    allowedTools: readList(byKey.get("allowed-tools"), report, /\s+/),
    meta: {},
  };
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

function readName(
  field: RawField | undefined,
  report: Report,
  expected: string | undefined,
): string | undefined {
  const given = readString(field, report);
  if (given === undefined) {
    if (field !== undefined && field.value.kind !== "null") return undefined; // reported
    if (expected === undefined) {
      return void report.error('field "name" is missing', at(field, "name"));
    }
    if (!isValidSkillName(expected)) {
      return void report.error(
        `field "name" is missing and the expected name ${quote(expected)} is not a valid ` +
          "skill name",
        at(field, "name"),
      );
    }
    report.skill = expected;
    report.warn(`field "name" is missing; using ${quote(expected)}`, at(field, "name"));
    return expected;
  }
  try {
    assertSkillName(given);
  } catch (error) {
    return void report.error(`field "name": ${(error as Error).message}`, at(field, "name"), error);
  }
  report.skill = given;
  if (expected !== undefined && expected !== given) {
    report.warn(
      `field "name" is ${quote(given)} but the file or folder name says ${quote(expected)}`,
      at(field, "name"),
    );
  }
  return given;
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
  const text = readString(field, report);
  if (text === undefined) {
    if (field === undefined || field.value.kind === "null") {
      report.error('field "description" is missing', at(field, "description"));
    }
    return "";
  }
  if (text.trim() === "") {
    report.error('field "description" must not be empty', at(field, "description"));
  } else if (text.length > DESCRIPTION_MAX) {
    report.warn(
      `field "description" is longer than ${DESCRIPTION_MAX} characters`,
      at(field, "description"),
    );
  }
  return text;
}

/** A string field: `undefined` when absent, empty or of the wrong kind (reported). */
function readString(field: RawField | undefined, report: Report): string | undefined {
  if (field === undefined || field.value.kind === "null") return undefined;
  if (field.value.kind === "scalar") return field.value.text;
  report.error(
    `field ${quote(field.key)} must be a string, not ${kindName(field.value)}`,
    at(field, field.key),
  );
  return undefined;
}

/** A list of strings, also given as one string split by `separator`. */
function readList(field: RawField | undefined, report: Report, separator: RegExp): string[] {
  if (field === undefined || field.value.kind === "null") return [];
  const value = field.value;
  if (value.kind === "scalar") return value.text.split(separator).map(trim).filter(Boolean);
  if (value.kind === "map") {
    report.error(
      `field ${quote(field.key)} must be a list of strings, not a map`,
      at(field, field.key),
    );
    return [];
  }
  const out: string[] = [];
  value.items.forEach((item: RawValue, index: number) => {
    if (item.kind === "scalar") {
      if (item.text.trim() !== "") out.push(item.text.trim());
    } else if (item.kind !== "null") {
      report.error(
        `field ${quote(field.key)} must be a list of strings; item ${index + 1} is ${
          kindName(item)
        }`,
        { line: item.line ?? field.line, field: field.key },
      );
    }
  });
  return out;
}

function readMetadata(field: RawField | undefined, report: Report): Record<string, string> {
  const out: Record<string, string> = {};
  if (field === undefined || field.value.kind === "null") return out;
  if (field.value.kind !== "map") {
    report.error(
      `field "metadata" must be a map of strings, not ${kindName(field.value)}`,
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
      report.error(`field ${quote(name)} must be a string, not ${kindName(value)}`, {
        line: value.line ?? entry.line,
        field: name,
      });
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
