/**
 * `skillmux skill list|show|add|remove|install|update|uninstall|search`: the skills the
 * zero-config resolver sees, installing into or removing from the user and community folders,
 * and community skills from a registry.
 *
 * @module
 */

import { listSkills, resolveSkill } from "../resolve/default_sources.ts";
import { createBuiltinSource } from "../resolve/builtin_source.ts";
import { isSkillNotFoundError } from "../resolve/errors.ts";
import { isRemoteProvenance } from "../resolve/provenance.ts";
import { normalizeSkillName } from "../skill/name.ts";
import { renderSkill } from "../skill/render.ts";
import { createFsStorage } from "../storage/fs.ts";
import { CliError } from "./_args.ts";
import type { Command } from "./_command.ts";
import { type Context, printJson, table } from "./_context.ts";
import { add } from "./skill_add.ts";
import { formatBytes } from "../_bytes.ts";
import { removeSkill } from "../install/place.ts";
import { readLockFile } from "../install/lock.ts";
import type { LockEntry } from "../install/types.ts";
import { readLock, writeLock } from "../install/lock_file.ts";
import { lint } from "./skill_lint.ts";
import { suggesting } from "./_suggest.ts";
import { installCommands } from "./skill_install.ts";

const LAYOUTS = [".md", "/SKILL.md", ".toml"] as const;
const clip = (text: string, max = 72) => text.length > max ? `${text.slice(0, max - 1)}…` : text;

const list: Command = {
  words: ["skill", "list"],
  args: "",
  summary: "List every skill once: winning source, shadowed sources, description",
  async run(ctx) {
    const { skills, diagnostics } = await listSkills({ ...ctx.sourceOptions, deadlineMs: 20_000 });
    const locks = await installedFrom(ctx);
    const lockOf = (s: { name: string; source: string }) => locks.get(`${s.source}:${s.name}`);
    if (ctx.json) {
      // What a person or a script wants of a listing; the ranking material (keywords, tasks,
      // allowed tools) stays out.
      const rows = skills.map(({ name, source, location, description, shadows, digest, tags }) => {
        const locked = lockOf({ name, source });
        return {
          name,
          source,
          location,
          description,
          shadows,
          digest,
          tags,
          ...(locked ? { installed: locked } : {}),
        };
      });
      return printJson(ctx, { skills: rows, diagnostics }), 0;
    }
    for (const d of diagnostics) {
      ctx.err(`warning: ${d.source}${d.name ? ` "${d.name}"` : ""}: ${d.message}`);
    }
    const from = skills.some((s) => lockOf(s) !== undefined);
    const rows = skills.map((s) => [
      ctx.paint.bold(s.name),
      isRemoteProvenance(s.source) ? `${s.source} (MCP)` : s.source,
      s.shadows.length > 0 ? s.shadows.join(",") : "-",
      ...(from ? [origin(lockOf(s))] : []),
      clip(s.description),
    ]);
    if (rows.length > 0) {
      const head = ["NAME", "SOURCE", "SHADOWS", ...(from ? ["FROM"] : []), "DESCRIPTION"];
      table([head, ...rows]).forEach(ctx.out);
    }
    const counts = new Map<string, number>(
      ["user", "community", "from MCP servers", "builtin"].map((tier) => [tier, 0]),
    );
    for (const s of skills) {
      const tier = isRemoteProvenance(s.source) ? "from MCP servers" : s.source;
      counts.set(tier, (counts.get(tier) ?? 0) + 1);
    }
    const parts = [...counts].filter(([, n]) => n > 0).map(([tier, n]) => `${n} ${tier}`).join(
      ", ",
    );
    ctx.out(
      `${skills.length} skill${skills.length === 1 ? "" : "s"} available${
        parts ? ` (${parts})` : ""
      }`,
    );
    return 0;
  },
};

/** Lock entries of the user and community folders, by `<tier>:<name>`. */
async function installedFrom(ctx: Context): Promise<Map<string, LockEntry>> {
  const folders = await ctx.folders();
  const out = new Map<string, LockEntry>();
  for (const tier of ["user", "community"] as const) {
    const entries = await readLockFile(folders[tier]).catch((error: Error) => {
      ctx.err(`warning: ${error.message}`);
      return [];
    });
    for (const entry of entries) out.set(`${tier}:${entry.name}`, entry);
  }
  return out;
}

/** `git github.com/acme/skills#v1 @1a2b3c4`, `path /src/skills`, `registry 1.2.0`, or `-`. */
function origin(entry: LockEntry | undefined): string {
  if (entry === undefined) return "-";
  const type = entry.sourceType ?? "registry";
  const ref = entry.ref ? `#${entry.ref}` : "";
  const commit = entry.commit ? ` @${entry.commit.slice(0, 7)}` : "";
  const version = entry.version ? ` ${entry.version}` : "";
  return clip(`${type}${commit}${version} ${entry.source}${ref}`, 48);
}

const bytes = formatBytes;

const show: Command = {
  words: ["skill", "show"],
  args: "<name>",
  min: 1,
  summary: "Show the winning skill, rendered, with its source and location",
  async run(ctx, [name]) {
    const options = { ...ctx.sourceOptions, deadlineMs: 20_000 };
    const hit = await suggesting(
      name,
      () => resolveSkill(name, options),
      isSkillNotFoundError,
      async () => (await listSkills(options)).skills.map((s) => s.name),
    );
    const { skill } = hit;
    if (ctx.json) {
      const { source, location, diagnostics, folder, files } = hit;
      return printJson(ctx, {
        name: skill.name,
        source,
        location,
        ...(folder === undefined ? {} : { folder }),
        files,
        diagnostics,
        skill,
      }),
        0;
    }
    for (const d of hit.diagnostics) ctx.err(`warning: ${d.source}: ${d.message}`);
    ctx.out(ctx.paint.dim(`Source:   ${hit.source}${hit.location ? ` (${hit.location})` : ""}`));
    if (hit.folder !== undefined) ctx.out(ctx.paint.dim(`Folder:   ${hit.folder}`));
    ctx.out(ctx.paint.dim(`Digest:   ${skill.digest}`));
    if (hit.files.length > 0) {
      const total = hit.files.reduce((n, f) => n + f.size, 0);
      ctx.out(ctx.paint.dim(`Files:    ${hit.files.length} (${bytes(total)})`));
      table(hit.files.map((f) => [`  ${f.path}`, bytes(f.size), f.digest.slice(0, 19)]))
        .forEach((line) => ctx.out(ctx.paint.dim(line)));
    }
    ctx.out();
    ctx.io.stdout(renderSkill(skill));
    return 0;
  },
};

async function removeFrom(
  ctx: Context,
  tier: "user" | "community",
  name: string,
): Promise<string[]> {
  const dir = (await ctx.folders())[tier];
  const storage = createFsStorage({ root: dir });
  const removed: string[] = [];
  for (const layout of LAYOUTS) {
    const key = `${name}${layout}`;
    if (await storage.get(key) !== undefined) removed.push(key);
  }
  if (removed.length === 0) return removed;
  // A folder skill goes with all its files, and its lock entry with it.
  await removeSkill(dir, name);
  const lock = await readLock(dir);
  if (lock.skills[name] !== undefined) {
    delete lock.skills[name];
    await writeLock(dir, lock);
  }
  return removed;
}

const remove: Command = {
  words: ["skill", "remove"],
  args: "<name>",
  min: 1,
  summary: "Remove an installed skill: from the user folder, else from the community folder",
  async run(ctx, [raw]) {
    const name = normalizeSkillName(raw);
    for (const tier of ["user", "community"] as const) {
      const removed = await removeFrom(ctx, tier, name);
      if (removed.length === 0) continue;
      if (ctx.json) return printJson(ctx, { name, source: tier, removed }), 0;
      ctx.out(
        `${ctx.paint.ok("✓")} Removed "${name}" from the ${tier} skills (${removed.join(", ")})`,
      );
      return 0;
    }
    const builtin = await createBuiltinSource().get(name, { signal: new AbortController().signal });
    if (builtin) throw new CliError(`Skill "${name}" is built in and cannot be removed`);
    throw new CliError(`No skill named "${name}" is installed in the user or community folder`);
  },
};

/** The `skill` command group. */
export const skillCommands: readonly Command[] = [
  list,
  show,
  lint,
  add,
  remove,
  ...installCommands,
];
