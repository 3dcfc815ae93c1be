// Private: what the skills extension's reads (client.ts) do — page through `skills/list`, get one
// entry, read a listed file and verify its size and digest, load SKILL.md and compare its front
// matter with the entry. Loaded with the first of them.

import { readFrontMatter } from "../../skill/front_matter.ts";
import { ProtocolError, SkillVerificationError } from "../protocol/errors.ts";
import type { McpClient } from "../client/client_types.ts";
import { offersSkills, SKILLS_EXTENSION } from "./extension.ts";
import { entryProblem, listedFile, sameJson, verifyBytes } from "./_verify.ts";
import { readResourceBytes } from "./resource_bytes.ts";
import type { LoadedSkill, SkillEntry, SkillEntryListing, SkillReadOptions } from "./types.ts";

const MAX_PAGES = 100;

function requireSkills(client: McpClient): void {
  if (!offersSkills(client)) {
    throw new ProtocolError(`${client.name}: the server does not declare ${SKILLS_EXTENSION}`, {
      server: client.name,
    });
  }
}

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

export async function readSkillFile(
  client: McpClient,
  entry: SkillEntry,
  uri: string,
  options: SkillReadOptions = {},
): Promise<string> {
  return (await readVerified(client, entry, uri, options)).text;
}

export async function readSkillFileBytes(
  client: McpClient,
  entry: SkillEntry,
  uri: string,
  options: SkillReadOptions = {},
): Promise<Uint8Array> {
  return (await readVerified(client, entry, uri, options)).bytes;
}

async function readVerified(
  client: McpClient,
  entry: SkillEntry,
  uri: string,
  options: SkillReadOptions,
): Promise<{ text: string; bytes: Uint8Array }> {
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
    return await readResourceBytes(client, uri, options);
  }
  const file = listedFile(entry, uri, client.name);
  const read = await readResourceBytes(client, uri, options);
  await verifyBytes(file, read.bytes, client.name);
  return read;
}

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
