// Private: YAML front matter → raw fields, with lines of the original text.
// Uses `yaml` with the YAML 1.2 core schema: no code execution, no custom
// tags, no merge keys, unique keys and a low alias budget.

import type { Document } from "yaml";
import type { FrontMatterSplit } from "./_front_matter.ts";
import type { RawField, RawValue } from "./_raw.ts";
import { toPlain } from "./_raw.ts";
import type { At, Report } from "./_report.ts";
import { isValidSkillName } from "./name.ts";
import { lineIndexAt, lineStarts } from "./_text.ts";
import { withQuietEnv } from "./_quiet_env.ts";

let Y: typeof import("./_yaml_parser.ts") | undefined;

/**
 * Load the `yaml` package (about 30 KiB gzip) on first use, so bundles that
 * never parse a skill never fetch it. {@linkcode readYamlFields} needs it loaded.
 */
export async function loadYaml(): Promise<void> {
  Y ??= await import("./_yaml_parser.ts");
}

/** The most aliases a front matter may expand (YAML "billion laughs" guard). */
export const MAX_ALIAS_COUNT = 50;

/** Raw fields plus YAML warnings, reported once the skill name is known. */
export interface YamlFields {
  fields: RawField[];
  warnings: { detail: string; at: At }[];
}

/** Parses the front matter of `split`; fatal problems throw through `report`. */
export function readYamlFields(split: FrontMatterSplit, report: Report): YamlFields {
  const starts = lineStarts(split.yaml);
  const last = Math.max(0, split.yaml.length - 1);
  const lineOf = (offset: number): number =>
    split.yamlLine + lineIndexAt(starts, Math.min(offset, last));
  let doc: Document;
  try {
    doc = withQuietEnv(() =>
      Y!.parseDocument(split.yaml, {
        schema: "core",
        version: "1.2",
        uniqueKeys: true,
        merge: false,
        prettyErrors: false,
        logLevel: "error",
      })
    );
  } catch (error) {
    return failUnexpected(error, report, split.yamlLine);
  }
  const root = doc.contents;
  peekName(root, report);
  const fieldAt = (offset: number): string | undefined => {
    if (!Y!.isMap(root)) return undefined;
    let found: string | undefined;
    for (const pair of root.items) {
      const start = (pair.key as { range?: [number, number, number] } | null)?.range?.[0];
      if (start !== undefined && start <= offset && Y!.isScalar(pair.key)) {
        found = scalarText(pair.key);
      }
    }
    return found;
  };
  const first = doc.errors[0];
  if (first !== undefined) {
    const at = { line: lineOf(first.pos[0]), field: fieldAt(first.pos[0]) };
    const what = first.code === "DUPLICATE_KEY" ? "has a duplicate key" : "is not valid YAML";
    report.fail(`front matter ${what}${inField(at.field)}: ${first.message}`, at, first);
  }
  try {
    doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      report.fail(
        `front matter expands too many YAML aliases (at most ${MAX_ALIAS_COUNT} are allowed)`,
        { line: split.yamlLine },
        error,
      );
    }
    failUnexpected(error, report, split.yamlLine);
  }
  const warnings = doc.warnings.map((w) => {
    const at = { line: lineOf(w.pos[0]), field: fieldAt(w.pos[0]) };
    return { detail: `front matter${inField(at.field)}: ${w.message}`, at };
  });
  if (root === null || (Y!.isScalar(root) && root.value === null)) return { fields: [], warnings };
  if (!Y!.isMap(root)) {
    report.fail("front matter must be a YAML mapping of fields", { line: split.yamlLine });
  }
  const toRaw = (node: unknown, depth: number): RawValue => {
    const line = lineOfNode(node, lineOf);
    const target = Y!.isAlias(node) ? node.resolve(doc) : node;
    if (target === null || target === undefined) return { kind: "null", line };
    if (Y!.isScalar(target)) {
      return target.value === null ? { kind: "null", line } : {
        kind: "scalar",
        text: scalarText(target),
        line,
      };
    }
    if (Y!.isSeq(target)) {
      return { kind: "list", items: depth > 0 ? target.items.map((i) => toRaw(i, 0)) : [], line };
    }
    if (Y!.isMap(target) && depth > 0) return { kind: "map", entries: toFields(target, 0), line };
    return { kind: "map", entries: [], line };
  };
  const toFields = (map: { items: { key: unknown; value: unknown }[] }, depth: number) =>
    map.items.map((pair): RawField => {
      const key = Y!.isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
      const line = lineOfNode(pair.key, lineOf);
      if (key !== null && key !== undefined && !Y!.isScalar(key)) {
        report.fail("front matter keys must be strings", { line });
      }
      const value = pair.value;
      return {
        key: key === null || key === undefined || key.value === null ? "" : scalarText(key),
        value: toRaw(value, depth),
        line,
        toJS: () =>
          Y!.isScalar(value) || Y!.isMap(value) || Y!.isSeq(value) || Y!.isAlias(value)
            ? toPlain(value.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT }))
            : null,
      };
    });
  return { fields: toFields(root, 1), warnings };
}

/** The author's text of a scalar: its string value, or its source for numbers and booleans. */
function scalarText(node: { value: unknown; source?: string }): string {
  if (typeof node.value === "string") return node.value;
  return typeof node.source === "string" && node.source !== "" ? node.source : String(node.value);
}

function lineOfNode(node: unknown, lineOf: (offset: number) => number): number | undefined {
  const range = (node as { range?: [number, number, number] | null } | null)?.range;
  return range ? lineOf(range[0]) : undefined;
}

function inField(field: string | undefined): string {
  return field === undefined ? "" : ` at field ${JSON.stringify(field)}`;
}

/** Uses a valid `name` from a broken front matter to label its errors. */
function peekName(root: unknown, report: Report): void {
  if (!Y!.isMap(root)) return;
  const value = root.get("name", true);
  if (Y!.isScalar(value) && isValidSkillName(value.value)) report.skill = value.value;
}

function failUnexpected(error: unknown, report: Report, line: number): never {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotCapable" || name === "PermissionDenied") {
    report.fail(
      "the YAML parser needs to read the LOG_TOKENS and LOG_STREAM environment variables; " +
        "run Deno with --allow-env=LOG_TOKENS,LOG_STREAM (or -A)",
      { line },
      error,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return report.fail(`front matter could not be parsed as YAML: ${message}`, { line }, error);
}
