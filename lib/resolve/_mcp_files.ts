// Private: the files of skills an MCP server serves, for mcp_source.ts. From a skills-extension
// entry: every listed resource but SKILL.md, with the entry's size and digest, each read verified
// against them (readSkillFileBytes). From a server with resources only: the `skill://<name>/<path>`
// resources it lists, read once when the skill is resolved to learn their sizes and digests
// (bounded by the extension's limits), and read again, checked, when asked for.

import type { McpClient } from "../mcp/client/client_types.ts";
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from "../mcp/skills/extension.ts";
import { readResourceBytes } from "../mcp/skills/resource_bytes.ts";
import { readSkillFileBytes } from "../mcp/skills/client.ts";
import type { SkillEntry } from "../mcp/skills/types.ts";
import type { Resource } from "../mcp/protocol/types.ts";
import { sha256Digest } from "../_digest.ts";
import { isSkillFile, type SkillFileInfo } from "../skill/files.ts";
import type { SourceCallOptions, SourceEntry } from "./types.ts";

type FolderParts = Pick<SourceEntry, "folder" | "files" | "readFile" | "notes">;

/** `a/b%20c.md` → `a/b c.md`; `undefined` when it does not decode or is not a skill file. */
function pathOf(rest: string): string | undefined {
  let path: string;
  try {
    path = rest.split("/").map(decodeURIComponent).join("/");
  } catch {
    return undefined;
  }
  return isSkillFile(path) && path !== "SKILL.md" ? path : undefined;
}

/** The folder parts of a skills-extension entry. */
export function entryFiles(
  entry: SkillEntry,
  client: () => Promise<McpClient>,
): FolderParts {
  const root = entry.uri.slice(0, -"SKILL.md".length);
  if (entry.resources === "dynamic") return { folder: root, files: [] };
  const uris = new Map<string, string>();
  const files: SkillFileInfo[] = [];
  for (const resource of entry.resources) {
    if (resource.uri === entry.uri) continue;
    const path = pathOf(resource.uri.slice(root.length));
    if (path === undefined || uris.has(path)) continue;
    uris.set(path, resource.uri);
    files.push({ path, size: resource.size, digest: resource.digest });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    folder: root,
    files,
    readFile: async (path: string, { signal }: SourceCallOptions) =>
      await readSkillFileBytes(await client(), entry, uris.get(path)!, { signal }),
  };
}

/** `skill://<name>/<path>` resources of skill `name`, by path. */
export function resourceFiles(resources: readonly Resource[], name: string): Map<string, string> {
  const prefix = `skill://${name}/`;
  const out = new Map<string, string>();
  for (const resource of resources) {
    if (!resource.uri.startsWith(prefix)) continue;
    const path = pathOf(resource.uri.slice(prefix.length));
    if (path !== undefined && !out.has(path)) out.set(path, resource.uri);
  }
  return out;
}

/** The folder parts of skill `name` on a server with resources only, read to learn digests. */
export async function readResourceFiles(
  name: string,
  uris: ReadonlyMap<string, string>,
  client: McpClient,
  signal: AbortSignal,
): Promise<FolderParts> {
  const files: SkillFileInfo[] = [];
  const notes: string[] = [];
  let total = 0;
  for (const [path, uri] of [...uris].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (files.length >= MAX_SKILL_FILES) {
      notes.push(`more than ${MAX_SKILL_FILES} files; the rest are left out`);
      break;
    }
    const { bytes } = await readResourceBytes(client, uri, { signal });
    if ((total += bytes.byteLength) > MAX_SKILL_BYTES) {
      notes.push(`more than ${MAX_SKILL_BYTES} bytes; ${path} and the rest are left out`);
      break;
    }
    files.push({ path, size: bytes.byteLength, digest: await sha256Digest(bytes) });
  }
  return {
    folder: `skill://${name}/`,
    files,
    notes,
    readFile: async (path: string, call: SourceCallOptions) =>
      (await readResourceBytes(client, uris.get(path)!, { signal: call.signal })).bytes,
  };
}
