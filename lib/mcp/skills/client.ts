/**
 * The skills extension (SEP-2640) on a connected client: list and get skill entries on servers
 * that declare `io.modelcontextprotocol/skills`, and load `SKILL.md` and its files lazily,
 * each read verified against the entry (size, `sha256:` digest, front matter field by field;
 * an unlisted file is a failure too). Nothing is fetched on connect or list.
 *
 * @module
 */

import { readFrontMatter } from "../../skill/front_matter.ts";
import { ProtocolError, SkillVerificationError } from "../errors.ts";
import type { McpClient } from "../client_types.ts";
import { entryProblem, listedFile, sameJson, verifyBytes } from "./_verify.ts";
import type { LoadedSkill, SkillEntry, SkillEntryListing, SkillReadOptions } from "./types.ts";

/**
 * The extension identifier servers declare under `capabilities.extensions`.
 *
 * @example
 * ```ts
 * import { SKILLS_EXTENSION } from "@skillmux/core";
 * console.log(SKILLS_EXTENSION); // "io.modelcontextprotocol/skills"
 * ```
 */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

const MAX_PAGES = 100;

/**
 * Whether the server declares the skills extension (only then may `skills/*` be called).
 *
 * @example
 * ```ts
 * import { connect, offersSkills } from "@skillmux/core";
 * const client = await connect({ name: "team", url: "http://127.0.0.1:3737/mcp" });
 * console.log(offersSkills(client));
 * await client.close();
 * ```
 */
export function offersSkills(client: Pick<McpClient, "capabilities">): boolean {
  const extensions = client.capabilities.extensions as Record<string, unknown> | undefined;
  return typeof extensions === "object" && extensions !== null && SKILLS_EXTENSION in extensions;
}

function requireSkills(client: McpClient): void {
  if (!offersSkills(client)) {
    throw new ProtocolError(`${client.name}: the server does not declare ${SKILLS_EXTENSION}`, {
      server: client.name,
    });
  }
}

/**
 * Every skill entry (`skills/list`, all pages, bounded). Malformed entries are left out and
 * reported in `rejected`. Reads nothing.
 *
 * @example
 * ```ts
 * import { connect, listSkillEntries } from "@skillmux/core";
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
  requireSkills(client);
  const listing: SkillEntryListing = { skills: [], rejected: [] };
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = cursor === undefined ? {} : { cursor };
    const result = await client.request("skills/list", params, { ...options, idempotent: true });
    for (const entry of Array.isArray(result.skills) ? result.skills : []) {
      const problem = entryProblem(entry);
      if (problem === undefined) listing.skills.push(entry as SkillEntry);
      else listing.rejected.push({ uri: (entry as { uri?: string })?.uri, reason: problem });
    }
    const next = result.nextCursor;
    if (typeof next !== "string" || next === "" || seen.has(next)) return listing;
    seen.add(next);
    cursor = next;
  }
  throw new ProtocolError(`${client.name}: skills/list has more than ${MAX_PAGES} pages`, {
    server: client.name,
  });
}

/**
 * The entry of one skill by the URI of its `SKILL.md` (`skills/get`), for a skill that was not
 * listed or to refresh a stale one. Throws `RpcError` -32602 for a URI the server does not serve.
 *
 * @example
 * ```ts
 * import { connect, getSkillEntry } from "@skillmux/core";
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
  requireSkills(client);
  const result = await client.request("skills/get", { uri }, { ...options, idempotent: true });
  const problem = entryProblem(result.skill);
  if (problem !== undefined) {
    throw new SkillVerificationError("invalid", uri, `invalid skill entry: ${problem}`, {
      server: client.name,
    });
  }
  return result.skill as SkillEntry;
}

/** The raw bytes and text of one resource read. */
async function readBytes(
  client: McpClient,
  uri: string,
  options: SkillReadOptions,
): Promise<{ text: string; bytes: Uint8Array }> {
  const contents = await client.readResource(uri, options);
  const item = contents.find((c) => c.uri === uri) ?? contents[0];
  if (typeof item?.text === "string") {
    return { text: item.text, bytes: new TextEncoder().encode(item.text) };
  }
  if (typeof item?.blob === "string") {
    const bytes = Uint8Array.from(atob(item.blob), (c) => c.charCodeAt(0));
    return { text: new TextDecoder().decode(bytes), bytes };
  }
  throw new ProtocolError(`${client.name}: ${uri} came back empty`, { server: client.name });
}

/**
 * Read one file of a skill, verified against its entry: only a listed URI is read, and its size
 * and digest must match (`SkillVerificationError` otherwise; the content is not returned).
 *
 * @example
 * ```ts
 * import { connect, listSkillEntries, readSkillFile } from "@skillmux/core";
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
  if (entry.resources === "dynamic") {
    if (!options.allowDynamic) {
      throw new SkillVerificationError(
        "dynamic",
        entry.uri,
        `${entry.uri} is dynamic (no digests)`,
        {
          server: client.name,
        },
      );
    }
    return (await readBytes(client, uri, options)).text;
  }
  const file = listedFile(entry, uri, client.name);
  const { text, bytes } = await readBytes(client, uri, options);
  await verifyBytes(file, bytes, client.name);
  return text;
}

/**
 * Load a skill: read its `SKILL.md`, verify it (size, digest, and its front matter field by
 * field against the entry's), and keep `allowed-tools` apart as requested, not granted.
 *
 * @example
 * ```ts
 * import { connect, listSkillEntries, loadSkill } from "@skillmux/core";
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
  const text = await readSkillFile(client, entry, entry.uri, options);
  const front = await readFrontMatter(text);
  if (front === undefined || !sameJson(front, entry.frontmatter)) {
    throw new SkillVerificationError(
      "frontmatter",
      entry.uri,
      `${entry.uri}: its front matter differs from the skill's entry`,
      { server: client.name },
    );
  }
  const tools = front["allowed-tools"];
  return {
    server: client.name,
    entry,
    text,
    requestedAllowedTools: typeof tools === "string" ? tools.split(/\s+/).filter(Boolean) : [],
  };
}
