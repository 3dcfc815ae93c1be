// Private: an Agent Skills discovery index (`/.well-known/agent-skills/index.json`, schema
// 0.2.0): read it, and download and verify the artifacts of the skills asked for — a `SKILL.md`
// (`"type": "skill-md"`) or an archive (`"archive"`: `.tar.gz` or `.zip`, unpacked safely). Every
// artifact is checked against the index's sha256 digest before anything is kept; an entry of an
// unknown type is skipped with a note. Downloads go through the installer's HTTP rules (the URL
// policy on every hop, size caps streamed, no content-encoding).

import * as v from "valibot";
import { normalizeSkillName } from "../skill/name.ts";
import { sha256Hex } from "./_download.ts";
import { getBytes, type HttpOptions, showUrl } from "./_http.ts";
import { type ArchiveFile, unpackArchive } from "./_archive.ts";
import { InstallError } from "./errors.ts";

/** The schema this client reads. */
export const DISCOVERY_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/** Where a domain publishes its index. */
export const WELL_KNOWN_INDEX = "/.well-known/agent-skills/index.json";

const Entry = v.object({
  name: v.string(),
  type: v.string(),
  description: v.optional(v.string()),
  url: v.pipe(v.string(), v.minLength(1)),
  digest: v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, "must be sha256:<64 lowercase hex>")),
  version: v.optional(v.string()),
});

/** One skill of an index, checked. */
export interface DiscoveryEntry {
  name: string;
  type: "skill-md" | "archive";
  description?: string;
  url: URL;
  digest: string;
  version?: string;
}

/** An index, its usable entries and what was skipped. */
export interface DiscoveryIndex {
  url: string;
  entries: DiscoveryEntry[];
  notes: string[];
}

/** The index URL for `spec`: a domain's well-known path, or the URL given when it names one. */
export function indexUrl(spec: URL): URL {
  if (spec.pathname === "" || spec.pathname === "/") return new URL(WELL_KNOWN_INDEX, spec);
  if (spec.pathname.endsWith("/")) return new URL("index.json", spec);
  return spec;
}

/** Download and check the index at `url`. */
export async function readDiscoveryIndex(url: URL, http: HttpOptions): Promise<DiscoveryIndex> {
  const bytes = await getBytes(url, 8 * 1024 * 1024, http, "the discovery index");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new InstallError("invalid-index", `The discovery index ${showUrl(url)} is not JSON`, {
      url: showUrl(url),
      cause: error,
    });
  }
  const top = json as { $schema?: unknown; skills?: unknown };
  if (top?.$schema !== DISCOVERY_SCHEMA) {
    throw new InstallError(
      "invalid-index",
      `The discovery index ${showUrl(url)} has ${
        top?.$schema === undefined ? "no $schema" : `the $schema ${JSON.stringify(top.$schema)}`
      }; this client reads ${DISCOVERY_SCHEMA} and does not guess at others`,
      { url: showUrl(url) },
    );
  }
  if (!Array.isArray(top.skills)) {
    throw new InstallError(
      "invalid-index",
      `The discovery index ${showUrl(url)} has no "skills" array`,
      {
        url: showUrl(url),
      },
    );
  }
  const entries: DiscoveryEntry[] = [];
  const notes: string[] = [];
  top.skills.forEach((raw, i) => {
    const parsed = v.safeParse(Entry, raw);
    const label = `entry ${i + 1}${
      typeof (raw as { name?: unknown })?.name === "string"
        ? ` ("${(raw as { name: string }).name}")`
        : ""
    }`;
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const where = issue.path?.map((p) => String(p.key)).join(".") ?? "";
      return notes.push(`${label} is left out: ${where ? `${where} ` : ""}${issue.message}`);
    }
    const entry = parsed.output;
    if (entry.type !== "skill-md" && entry.type !== "archive") {
      return notes.push(
        `${label} is left out: its type ${JSON.stringify(entry.type)} is not known`,
      );
    }
    let name: string;
    try {
      name = normalizeSkillName(entry.name);
    } catch (error) {
      return notes.push(`${label} is left out: ${(error as Error).message}`);
    }
    let artifact: URL;
    try {
      artifact = new URL(entry.url, url);
    } catch {
      return notes.push(`${label} is left out: its url is not a URL`);
    }
    entries.push({ ...entry, name, type: entry.type, url: artifact });
  });
  return { url: showUrl(url), entries, notes };
}

/** Download `entry`'s artifact, check its digest, and give the skill folder's files. */
export async function fetchArtifact(
  entry: DiscoveryEntry,
  http: HttpOptions,
  limits: { maxFiles: number; maxBytes: number },
): Promise<{ files: ArchiveFile[]; sha256: string }> {
  const what = `the ${entry.type === "archive" ? "archive" : "SKILL.md"} of skill "${entry.name}"`;
  const bytes = await getBytes(entry.url, limits.maxBytes, http, what, entry.name);
  const sha256 = await sha256Hex(bytes);
  if (`sha256:${sha256}` !== entry.digest) {
    throw new InstallError(
      "digest",
      `Skill "${entry.name}": ${what} from ${showUrl(entry.url)} has sha256:${sha256}, but the ` +
        `index says ${entry.digest}; refusing it and writing nothing`,
      { skill: entry.name, url: showUrl(entry.url) },
    );
  }
  if (entry.type === "skill-md") return { files: [{ path: "SKILL.md", bytes }], sha256 };
  return { files: await unpackArchive(bytes, { ...limits, what }), sha256 };
}
