/**
 * Install skills from where people publish them: a git repository (pinned to a commit), a folder
 * on this machine, or a domain's Agent Skills discovery index (`/.well-known/agent-skills/`).
 *
 * @module
 */

import { nodeBuiltins } from "../_node.ts";
import { SKILL_FOLDER_LIMITS } from "../skill/files.ts";
import { checkout, type GitOptions, showRepo } from "./_git.ts";
import { httpOptions } from "./_http.ts";
import { fetchArtifact, indexUrl, readDiscoveryIndex } from "./_well_known.ts";
import { InstallError } from "./errors.ts";
import { addSkills } from "./local.ts";
import type { AddSkillsResult, InstallerOptions, SkillVerdict } from "./types.ts";

/** Where skills are installed from, as {@linkcode parseSkillSource} reads it. */
export type SkillSourceSpec =
  | { type: "git"; url: string; ref?: string }
  | { type: "path"; path: string }
  | { type: "well-known"; url: string };

/**
 * What a source argument names. A URL of a site's root or of a discovery index (a path under
 * `/.well-known/agent-skills/`, or ending in `.json`) is a discovery index; any other URL
 * (`https://github.com/acme/skills`, `ssh://`, `git://`, `file://`) and `git@host:repo` are git
 * repositories, `#ref` naming a branch, tag or commit; anything else is a folder on this
 * machine, or a local git repository when it ends in `#ref`.
 *
 * @param spec A source as typed, e.g. `https://github.com/acme/skills#v1.2.0`.
 * @returns The kind of source and its parts.
 *
 * @example
 * ```ts
 * import { parseSkillSource } from "@skillmux/core/install";
 * console.log(parseSkillSource("https://github.com/acme/skills#v1")); // { type: "git", url: "https://github.com/acme/skills", ref: "v1" }
 * console.log(parseSkillSource("https://skills.example.org")); // { type: "well-known", url: "https://skills.example.org/" }
 * console.log(parseSkillSource("./my-skills")); // { type: "path", path: "./my-skills" }
 * ```
 */
export function parseSkillSource(spec: string): SkillSourceSpec {
  const hash = spec.lastIndexOf("#");
  const base = hash > 0 ? spec.slice(0, hash) : spec;
  const ref = hash > 0 && hash < spec.length - 1 ? spec.slice(hash + 1) : undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(base)?.[1]?.toLowerCase();
  if (scheme === "http" || scheme === "https") {
    const url = new URL(base);
    if (
      url.pathname === "/" || url.pathname.includes("/.well-known/agent-skills") ||
      url.pathname.endsWith(".json")
    ) {
      return { type: "well-known", url: url.href };
    }
    return { type: "git", url: base, ...(ref ? { ref } : {}) };
  }
  if (scheme !== undefined || /^[\w.-]+@[\w.-]+:/.test(base)) {
    return { type: "git", url: base, ...(ref ? { ref } : {}) };
  }
  return ref ? { type: "git", url: base, ref } : { type: "path", path: spec };
}

/** Options of {@linkcode installFromSource}. */
export interface SourceInstallOptions
  extends Pick<InstallerOptions, "urlPolicy" | "fetch" | "timeoutMs" | "retries" | "signal"> {
  /** The folder to install into (the community folder). */
  communityDir: string;
  /** Take only these skills of the source (by folder name, or the index's name). */
  skills?: readonly string[];
  /** Replace a skill of the same name with other content. */
  force?: boolean;
  /** Check and report; write nothing. */
  dryRun?: boolean;
  /** Most files per skill (default 1000). */
  maxFiles?: number;
  /** Most bytes per skill (default 50 MiB). */
  maxBytes?: number;
  /** The git program (default `git`). */
  git?: string;
}

/** What {@linkcode installFromSource} did: one verdict per skill, and the source as pinned. */
export interface SourceInstallResult extends AddSkillsResult {
  /** The source: for git, the commit it was installed at. */
  source: SkillSourceSpec & { commit?: string };
}

/**
 * Install every skill of a source (or those of `skills`) into the community folder, each with
 * its verdict as {@linkcode addSkills} gives it (checked before anything of it is written, copied
 * whole, atomic, caps and the file rule applied), recorded in the lock file with the source, the
 * ref and commit (git) or version (index), and the sha256 of every file. A git repository is
 * cloned into a temp folder (no shell, no prompt, no hooks, no `ext::` transport) and removed
 * after; a discovery index's artifacts are checked against its digests before they are unpacked.
 * Skills installed this way are community skills: prompts fence them as untrusted, and nothing
 * of them is ever run.
 *
 * @param spec A git URL or path with an optional `#ref`, a folder, or a site (see {@linkcode parseSkillSource}).
 * @param options The community folder, the skills to take, caps and HTTP options.
 * @returns One verdict per skill, and the source as installed.
 * @throws {InstallError} When the source cannot be read at all (git fails, the index is unusable).
 *
 * @example
 * ```ts
 * import { installFromSource } from "@skillmux/core/install";
 * const result = await installFromSource("https://github.com/anthropics/skills#main", {
 *   communityDir: "/tmp/skillmux-community",
 *   skills: ["pdf"],
 *   dryRun: true,
 * }).catch((error) => console.log(error.message));
 * console.log(result?.source.commit, result?.skills.map((s) => s.action));
 * ```
 */
export async function installFromSource(
  spec: string,
  options: SourceInstallOptions,
): Promise<SourceInstallResult> {
  const source = parseSkillSource(spec);
  const common = {
    into: options.communityDir,
    force: options.force,
    dryRun: options.dryRun,
    maxFiles: options.maxFiles,
    maxBytes: options.maxBytes,
    signal: options.signal,
    ...(options.skills ? { only: options.skills } : {}),
  };
  if (source.type === "path") {
    const { path } = nodeBuiltins("Installing skills");
    const result = await addSkills(source.path, {
      ...common,
      origin: { source: path.resolve(source.path), sourceType: "path" },
    });
    return { ...result, source };
  }
  if (source.type === "git") {
    // `ext::<command>` and `fd::` are git "transports" that run a command: never, in any form.
    if (/^[a-z][\w+.-]*::/i.test(source.url) || source.url.startsWith("-")) {
      throw new InstallError("policy", `Refusing the git URL ${JSON.stringify(source.url)}`);
    }
    const name = /([^/:]+?)(?:\.git)?\/?$/.exec(source.url)?.[1]?.toLowerCase() ?? "repo";
    const git: GitOptions = { git: options.git, signal: options.signal };
    const local = !/^[a-z][a-z0-9+.-]*:\/\/|^[\w.-]+@[\w.-]+:/i.test(source.url);
    const { path } = nodeBuiltins("Installing skills");
    const url = local ? path.resolve(source.url) : source.url;
    const co = await checkout(url, source.ref, name.replace(/[^\w.-]/g, "-"), git);
    try {
      const result = await addSkills(co.dir, {
        ...common,
        origin: {
          source: showRepo(url),
          sourceType: "git",
          ...(source.ref ? { ref: source.ref } : {}),
          commit: co.commit,
        },
      });
      return { ...result, source: { ...source, commit: co.commit } };
    } finally {
      await co.remove();
    }
  }
  return await fromIndex(source, options, common);
}

async function fromIndex(
  source: Extract<SkillSourceSpec, { type: "well-known" }>,
  options: SourceInstallOptions,
  common: Parameters<typeof addSkills>[1],
): Promise<SourceInstallResult> {
  const { fs, os, path } = nodeBuiltins("Installing skills");
  const http = httpOptions(options);
  const index = await readDiscoveryIndex(indexUrl(new URL(source.url)), http);
  if (index.entries.length === 0) {
    throw new InstallError(
      "invalid-index",
      `The discovery index ${index.url} lists no usable skill${
        index.notes.length ? `: ${index.notes.join("; ")}` : ""
      }`,
    );
  }
  const wanted = options.skills === undefined
    ? index.entries
    : index.entries.filter((e) => options.skills!.includes(e.name));
  const skills: SkillVerdict[] = [];
  const notes = [...index.notes];
  for (const name of options.skills ?? []) {
    if (!index.entries.some((e) => e.name === name)) {
      skills.push(refused(name, `the discovery index ${index.url} lists no skill "${name}"`));
    }
  }
  const limits = {
    maxFiles: options.maxFiles ?? SKILL_FOLDER_LIMITS.maxFiles,
    maxBytes: options.maxBytes ?? SKILL_FOLDER_LIMITS.maxBytes,
  };
  const base = await fs.mkdtemp(path.join(os.tmpdir(), "skillmux-index-"));
  try {
    for (const entry of wanted) {
      let artifact;
      try {
        artifact = await fetchArtifact(entry, http, limits);
      } catch (error) {
        if ((error as Error).name !== "InstallError") throw error;
        skills.push(refused(entry.name, (error as Error).message));
        continue;
      }
      const dir = path.join(base, entry.name);
      for (const file of artifact.files) {
        const target = path.resolve(dir, ...file.path.split("/"));
        if (!target.startsWith(dir + path.sep)) throw new Error(`bad path ${file.path}`);
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.writeFile(target, file.bytes, { flag: "wx" });
      }
      const result = await addSkills(dir, {
        ...common,
        only: undefined,
        origin: {
          source: index.url,
          sourceType: "well-known",
          ...(entry.version ? { version: entry.version } : {}),
          artifact: artifact.sha256,
        },
      });
      skills.push(...result.skills);
      notes.push(...result.notes);
    }
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
  return { kind: "collection", skills, notes, dryRun: options.dryRun === true, source };
}

function refused(name: string, reason: string): SkillVerdict {
  return {
    name,
    action: "refused",
    reason,
    files: 0,
    bytes: 0,
    diagnostics: [],
    lint: [],
    excluded: [],
  };
}
