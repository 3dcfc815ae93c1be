// Private: the skills server's tools — `search_skills`, `get_skill` (the skill, where it lives
// and its files) and `read_skill_file` (one file, for hosts without resource reads) — the same
// over HTTP, stdio and the gateway. A skill the folder holds but refuses is named with why.

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { safeNormalizeSkillName } from "../skill/name.ts";
import { formatBytes } from "../_bytes.ts";
import type { SkillCatalog } from "./_catalog.ts";
import { searchSkills } from "./_search.ts";
import { fileContents, fileUri } from "./_skill_files.ts";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
/** The largest file `read_skill_file` returns; larger ones are read as resources. */
const MAX_TOOL_BYTES = 1024 * 1024;

const failure = (text: string): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

const size = formatBytes;

/** The answer for a name that is not served: refused (with why), invalid, or unknown. */
async function missing(catalog: SkillCatalog, raw: string, name: string | undefined) {
  const refused = name === undefined ? undefined : await catalog.refusedReason(name);
  if (refused !== undefined) {
    return failure(`Skill "${name}" is in the folder but is not served: ${refused}`);
  }
  const close = await searchSkills(await catalog.snapshot(), raw, 5);
  const hint = close.length > 0
    ? ` Did you mean ${close.map((hit) => `"${hit.name}"`).join(", ")}?`
    : "";
  if (name === undefined) {
    return failure(
      `${JSON.stringify(raw)} is not a skill name: names are 1-64 lowercase ASCII ` +
        `letters, digits and single hyphens.${hint} Use search_skills to find skills.`,
    );
  }
  return failure(`No skill named "${raw}".${hint} Use search_skills to find skills.`);
}

/** `get_skill`: the served SKILL.md, then where the skill lives and its files. */
export async function getSkill(catalog: SkillCatalog, args: Record<string, unknown>) {
  if (typeof args.name !== "string" || args.name === "") {
    return failure('get_skill needs a "name" string argument, e.g. { "name": "samtools" }');
  }
  const name = safeNormalizeSkillName(args.name);
  const entry = name === undefined ? undefined : await catalog.get(name);
  if (entry === undefined) return await missing(catalog, args.name, name);
  const files = entry.files.map((f) => ({
    path: f.path,
    uri: fileUri(entry.name, f.path),
    size: f.size,
    digest: f.digest,
  }));
  const listing = files.length === 0 ? "" : [
    "",
    "",
    "---",
    `Files of skill "${entry.name}" (paths relative to its folder; read one with ` +
    `read_skill_file { "name": "${entry.name}", "path": "…" } or resources/read of its URI):`,
    ...files.map((f) => `- ${f.path} (${size(f.size)}) ${f.uri}`),
  ].join("\n");
  return {
    content: [{ type: "text", text: `${entry.text}${listing}` }],
    structuredContent: { name: entry.name, uri: `skill://${entry.name}/SKILL.md`, files },
  };
}

/** `read_skill_file`: one file of a skill, as text or as an embedded binary resource. */
export async function readSkillFile(catalog: SkillCatalog, args: Record<string, unknown>) {
  const { name: raw, path } = args;
  if (typeof raw !== "string" || typeof path !== "string" || path === "") {
    return failure(
      'read_skill_file needs "name" and "path" strings, e.g. { "name": "pdf", "path": "scripts/fill.py" }',
    );
  }
  const name = safeNormalizeSkillName(raw);
  const entry = name === undefined ? undefined : await catalog.get(name);
  if (entry === undefined) return await missing(catalog, raw, name);
  const file = entry.files.find((f) => f.path === path.replace(/^\.\//, ""));
  if (file === undefined) {
    const some = entry.files.slice(0, 20).map((f) => f.path).join(", ");
    return failure(
      `Skill "${entry.name}" has no file ${JSON.stringify(path)}${
        some ? `; its files: ${some}${entry.files.length > 20 ? ", …" : ""}` : "; it has no files"
      }`,
    );
  }
  if (file.size > MAX_TOOL_BYTES) {
    return failure(
      `${file.path} is ${size(file.size)}, over the ${size(MAX_TOOL_BYTES)} a tool answer holds; ` +
        `read it with resources/read ${fileUri(entry.name, file.path)}`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await entry.read(file.path);
  } catch (error) {
    return failure(
      `Cannot read ${file.path} of skill "${entry.name}": ${(error as Error).message}`,
    );
  }
  const contents = fileContents(fileUri(entry.name, file.path), file.path, bytes);
  if (typeof contents.text === "string") {
    return { content: [{ type: "text", text: contents.text }] };
  }
  return { content: [{ type: "resource", resource: contents }] };
}

/** `search_skills`. */
export async function search(catalog: SkillCatalog, args: Record<string, unknown>) {
  const { query, limit = DEFAULT_LIMIT } = args;
  if (typeof query !== "string") {
    return failure('search_skills needs a "query" string argument, e.g. { "query": "sort bam" }');
  }
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    return failure('search_skills: "limit" must be a positive integer');
  }
  const hits = await searchSkills(await catalog.snapshot(), query, Math.min(limit, MAX_LIMIT));
  const results = hits.map((hit) => ({ ...hit, uri: `skill://${hit.name}` }));
  const text = results.length === 0
    ? `No skill matches "${query}".`
    : results.map((hit) => `- ${hit.name} (${hit.uri}): ${hit.description}`).join("\n");
  return { content: [{ type: "text", text }], structuredContent: { results } };
}

/** Run skill tool `tool`, or `undefined` when it is not one of the skill tools. */
export async function callSkillTool(
  catalog: SkillCatalog,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult | undefined> {
  if (tool === "search_skills") return await search(catalog, args) as CallToolResult;
  if (tool === "get_skill") return await getSkill(catalog, args) as CallToolResult;
  if (tool === "read_skill_file") return await readSkillFile(catalog, args) as CallToolResult;
  return undefined;
}
