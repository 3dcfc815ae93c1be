// Private: a skill's files as they reach a model: where the skill lives and the list of its files
// in its block (inline or by activate_skill), and the `read_skill_file` tool that reads one —
// text as text (fenced, like the skill, when the skill came from a server or a registry),
// anything else named but not shown. Nothing of a skill is ever run.

import { cleanLine } from "../_text_clean.ts";
import { formatBytes } from "../_bytes.ts";
import type { CatalogEntry } from "../catalog/model/types.ts";
import type { Resolution } from "../resolve/types.ts";
import type { ToolDefinition } from "./tool_defs.ts";

/** The name of the tool that reads one file of a skill. */
export const READ_SKILL_FILE = "read_skill_file";

/** The most characters of one file shown to the model. */
export const FILE_MAX_CHARS = 32_000;
/** Files listed in a skill's block before "… n more". */
const LISTED = 100;

const size = formatBytes;

/**
 * The lines after a skill's text: where it lives and its files, for a model that reads them with
 * `read_skill_file` (or, for a folder on disk, with its own file tools). Empty for a single file.
 */
export function filesNote(hit: Pick<Resolution, "folder" | "files">, id: string): string {
  if (hit.files.length === 0) return "";
  const shown = hit.files.slice(0, LISTED).map((f) =>
    `- ${cleanLine(f.path, 300)} (${size(f.size)})`
  );
  const more = hit.files.length > LISTED ? [`- … ${hit.files.length - LISTED} more`] : [];
  return [
    "",
    `This skill's folder${hit.folder ? ` (${cleanLine(hit.folder, 300)})` : ""} holds the files ` +
    `its instructions name; paths are relative to it. Read one with ${READ_SKILL_FILE} ` +
    `{ "skill": "${id}", "path": "…" }; never run them unless the user asks.`,
    ...shown,
    ...more,
  ].join("\n");
}

/** The `read_skill_file` definition over the skills `ids`. */
export function readFileDefinition(ids: readonly string[]): ToolDefinition {
  return {
    name: READ_SKILL_FILE,
    description:
      "Read one file of a skill's folder (a script, reference or asset its instructions name), by the skill and the file's path inside the folder. Reading never runs it.",
    schema: {
      type: "object",
      properties: {
        skill: { type: "string", enum: [...ids], description: "The skill" },
        path: {
          type: "string",
          description: 'The file\'s path in the skill folder, e.g. "scripts/fill.py"',
        },
      },
      required: ["skill", "path"],
      additionalProperties: false,
    },
  };
}

/** Whether an entry's content is fenced (remote, or a registry's skill the catalog does not trust). */
export function isFenced(entry: CatalogEntry): boolean {
  return entry.remote || entry.fenced === true;
}

/** `bytes` as text for the model, or a line saying what the file is when it is not UTF-8 text. */
export function fileText(path: string, bytes: Uint8Array): { text: string; binary: boolean } {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { text, binary: false };
  } catch {
    return {
      text: `${path} is a binary file of ${size(bytes.byteLength)}; its content is not shown.`,
      binary: true,
    };
  }
}
