/**
 * The skills extension (SEP-2640) on a connected client: list and get skill entries on servers
 * that declare `io.modelcontextprotocol/skills`, and load `SKILL.md` and its files lazily,
 * each read verified against the entry (size, `sha256:` digest, front matter field by field;
 * an unlisted file is a failure too). Nothing is fetched on connect or list. The reading code
 * loads with the first call.
 *
 * @module
 */

import type { McpClient } from "../client/client_types.ts";
import type { LoadedSkill, SkillEntry, SkillEntryListing, SkillReadOptions } from "./types.ts";

export { offersSkills, SKILLS_EXTENSION } from "./extension.ts";

/**
 * Every skill entry (`skills/list`, all pages, bounded). Malformed entries are left out and
 * reported in `rejected`. Reads nothing.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { listSkillEntries } from "@skillmux/core/mcp";
 * const client = await connect({ name: "team", url: "http://127.0.0.1:3737/mcp" });
 * const { skills } = await listSkillEntries(client);
 * console.log(skills.map((s) => s.frontmatter.name));
 * await client.close();
 * ```
 */
export async function listSkillEntries(
  client: McpClient,
  options: SkillReadOptions = {},
): Promise<SkillEntryListing> {
  return (await import("./_read.ts")).listSkillEntries(client, options);
}

/**
 * The entry of one skill by the URI of its `SKILL.md` (`skills/get`), for a skill that was not
 * listed or to refresh a stale one. Throws `RpcError` -32602 for a URI the server does not serve.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { getSkillEntry } from "@skillmux/core/mcp";
 * const client = await connect({ name: "team", url: "http://127.0.0.1:3737/mcp" });
 * console.log((await getSkillEntry(client, "skill://bwa/SKILL.md")).resources);
 * await client.close();
 * ```
 */
export async function getSkillEntry(
  client: McpClient,
  uri: string,
  options: SkillReadOptions = {},
): Promise<SkillEntry> {
  return (await import("./_read.ts")).getSkillEntry(client, uri, options);
}

/**
 * Read one file of a skill, verified against its entry: only a listed URI is read, and its size
 * and digest must match (`SkillVerificationError` otherwise; the content is not returned).
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { listSkillEntries, readSkillFile } from "@skillmux/core/mcp";
 * const client = await connect({ name: "team", url: "http://127.0.0.1:3737/mcp" });
 * const [entry] = (await listSkillEntries(client)).skills;
 * console.log(await readSkillFile(client, entry, entry.uri));
 * await client.close();
 * ```
 */
export async function readSkillFile(
  client: McpClient,
  entry: SkillEntry,
  uri: string,
  options: SkillReadOptions = {},
): Promise<string> {
  return (await import("./_read.ts")).readSkillFile(client, entry, uri, options);
}

/**
 * The bytes of one file of a skill, verified against its entry as {@linkcode readSkillFile}
 * verifies them: for binary files (images, archives), which text would not carry exactly.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { listSkillEntries, readSkillFileBytes } from "@skillmux/core/mcp";
 * const client = await connect({ name: "team", url: "http://127.0.0.1:3737/mcp" });
 * const [entry] = (await listSkillEntries(client)).skills;
 * const files = entry.resources === "dynamic" ? [] : entry.resources;
 * console.log((await readSkillFileBytes(client, entry, files[0].uri)).byteLength);
 * await client.close();
 * ```
 */
export async function readSkillFileBytes(
  client: McpClient,
  entry: SkillEntry,
  uri: string,
  options: SkillReadOptions = {},
): Promise<Uint8Array> {
  return (await import("./_read.ts")).readSkillFileBytes(client, entry, uri, options);
}

/**
 * Load a skill: read its `SKILL.md`, verify it (size, digest, and its front matter field by
 * field against the entry's), and keep `allowed-tools` apart as requested, not granted.
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { listSkillEntries, loadSkill } from "@skillmux/core/mcp";
 * const client = await connect({ name: "team", url: "http://127.0.0.1:3737/mcp" });
 * const [entry] = (await listSkillEntries(client)).skills;
 * const loaded = await loadSkill(client, entry);
 * console.log(loaded.server, loaded.text.length, loaded.requestedAllowedTools);
 * await client.close();
 * ```
 */
export async function loadSkill(
  client: McpClient,
  entry: SkillEntry,
  options: SkillReadOptions = {},
): Promise<LoadedSkill> {
  return (await import("./_read.ts")).loadSkill(client, entry, options);
}
