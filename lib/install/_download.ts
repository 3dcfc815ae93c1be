// Private: download one registry entry, check every byte against the index's digests and parse
// the skill document. Nothing is written here.

import { parseSkill } from "../skill/parse.ts";
import { isSkillParseError } from "../skill/errors.ts";
import { InstallError } from "./errors.ts";
import { getBytes, httpOptions, showUrl } from "./_http.ts";
import type { InstallerOptions, RegistryEntry, RegistryIndex } from "./types.ts";

/** Default cap of a skill document or supporting file: 4 MiB. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** A downloaded, verified skill: the document and its supporting files. */
export interface DownloadedSkill {
  entry: RegistryEntry;
  /** The index URL it came from. */
  source: string;
  /** The skill document, as downloaded. */
  document: Uint8Array;
  /** Hex sha256 of the document. */
  sha256: string;
  /** Supporting files with their bytes and hex sha256. */
  files: { path: string; bytes: Uint8Array; sha256: string }[];
}

/**
 * Download `entry`'s document and files, check each against its digest and
 * parse the document (it must name `entry.name`). Nothing is written.
 */
export async function downloadSkill(
  entry: RegistryEntry,
  index: RegistryIndex,
  options: Partial<InstallerOptions>,
): Promise<DownloadedSkill> {
  const http = httpOptions(options);
  const cap = options.maxFileBytes ?? MAX_FILE_BYTES;
  const fetchOne = async (href: string, digest: string, what: string) => {
    let url: URL;
    try {
      url = new URL(href, index.url);
    } catch {
      throw new InstallError("invalid-index", `Skill "${entry.name}": ${what} has a bad URL`, {
        skill: entry.name,
      });
    }
    const bytes = await getBytes(url, cap, http, `${what} of skill "${entry.name}"`, entry.name);
    const sha256 = await sha256Hex(bytes);
    if (`sha256:${sha256}` !== digest) {
      throw new InstallError(
        "digest",
        `Skill "${entry.name}": ${what} from ${showUrl(url)} has sha256:${sha256}, but the ` +
          `index says ${digest}; refusing it and writing nothing`,
        { skill: entry.name, url: showUrl(url) },
      );
    }
    return { bytes, sha256 };
  };
  const document = await fetchOne(entry.url, entry.digest, "the skill document");
  const files = [];
  for (const file of entry.files ?? []) {
    files.push({ path: file.path, ...await fetchOne(file.url, file.digest, file.path) });
  }
  await checkDocument(entry, document.bytes, index.url);
  return { entry, source: index.url, document: document.bytes, sha256: document.sha256, files };
}

async function checkDocument(entry: RegistryEntry, bytes: Uint8Array, source: string) {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new InstallError("invalid-skill", `Skill "${entry.name}" from ${source} is not UTF-8`, {
      skill: entry.name,
      cause: error,
    });
  }
  let named: string;
  try {
    named = (await parseSkill(text, { source: entry.url })).skill.name;
  } catch (error) {
    if (!isSkillParseError(error)) throw error;
    throw new InstallError("invalid-skill", error.message, { skill: entry.name, cause: error });
  }
  if (named !== entry.name) {
    throw new InstallError(
      "invalid-skill",
      `Skill "${entry.name}" from ${source}: its front matter names it "${named}"`,
      { skill: entry.name },
    );
  }
}

/** Hex sha256 of `bytes`. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}
