/**
 * `skillmux skill list|show|add|remove|install|update|uninstall|search`: the skills the
 * zero-config resolver sees, installing into or removing from the user and community folders,
 * and community skills from a registry.
 *
 * @module
 */

import { readFile, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import { listSkills, resolveSkill } from "../resolve/default_sources.ts";
import { builtinSkillNames, createBuiltinSource } from "../resolve/builtin_source.ts";
import { isSkillNotFoundError } from "../resolve/errors.ts";
import { normalizeSkillName } from "../skill/name.ts";
import { parseSkill } from "../skill/parse.ts";
import { renderSkill } from "../skill/render.ts";
import { lintSkill } from "../skill/lint.ts";
import { createFsStorage } from "../storage/fs.ts";
import { CliError } from "./_args.ts";
import type { Command } from "./_command.ts";
import { type Context, ensureConfigDir, printJson, table } from "./_context.ts";
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
    if (ctx.json) {
      // What a person or a script wants of a listing; the ranking material (keywords, tasks,
      // allowed tools) stays out.
      const rows = skills.map(({ name, source, location, description, shadows, digest, tags }) => ({
        name,
        source,
        location,
        description,
        shadows,
        digest,
        tags,
      }));
      return printJson(ctx, { skills: rows, diagnostics }), 0;
    }
    for (const d of diagnostics) {
      ctx.err(`warning: ${d.source}${d.name ? ` "${d.name}"` : ""}: ${d.message}`);
    }
    const rows = skills.map((s) => [
      ctx.paint.bold(s.name),
      s.source.startsWith("mcp:") ? `${s.source} (MCP)` : s.source,
      s.shadows.length > 0 ? s.shadows.join(",") : "-",
      clip(s.description),
    ]);
    if (rows.length > 0) {
      table([["NAME", "SOURCE", "SHADOWS", "DESCRIPTION"], ...rows]).forEach(ctx.out);
    }
    const counts = new Map<string, number>(
      ["user", "community", "from MCP servers", "builtin"].map((tier) => [tier, 0]),
    );
    for (const s of skills) {
      const tier = s.source.startsWith("mcp:") ? "from MCP servers" : s.source;
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
      const { source, location, diagnostics } = hit;
      return printJson(ctx, { name: skill.name, source, location, diagnostics, skill }), 0;
    }
    for (const d of hit.diagnostics) ctx.err(`warning: ${d.source}: ${d.message}`);
    ctx.out(ctx.paint.dim(`Source:   ${hit.source}${hit.location ? ` (${hit.location})` : ""}`));
    ctx.out(ctx.paint.dim(`Digest:   ${skill.digest}`));
    ctx.out();
    ctx.io.stdout(renderSkill(skill));
    return 0;
  },
};

async function readSkillFile(file: string): Promise<{ path: string; text: string }> {
  try {
    const path = (await stat(file)).isDirectory() ? join(file, "SKILL.md") : file;
    return { path, text: await readFile(path, "utf8") };
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

const add: Command = {
  words: ["skill", "add"],
  args: "<file>",
  min: 1,
  summary: "Install a skill file (or a folder with SKILL.md) into the user or community folder",
  options: [
    "--community    install into the community folder instead of the user folder",
    "--force        replace a skill of the same name in that folder, or install one with lint errors",
  ],
  spec: { community: { type: "boolean" }, force: { type: "boolean" } },
  async run(ctx, [file], values) {
    const { path, text } = await readSkillFile(file);
    const { skill, diagnostics } = await parseSkill(text, { source: path });
    const tier = values.community === true ? "community" : "user";
    const folders = await ctx.folders();
    const root = folders[tier];
    const storage = createFsStorage({ root });
    const existing = [];
    for (const layout of LAYOUTS) {
      if (await storage.get(`${skill.name}${layout}`) !== undefined) {
        existing.push(`${skill.name}${layout}`);
      }
    }
    if (existing.length > 0 && values.force !== true) {
      throw new CliError(
        `Skill "${skill.name}" is already installed in the ${tier} folder (${
          existing[0]
        }); use --force to replace it`,
      );
    }
    // A skill that fails the quality bar would still win over a curated built-in in every
    // prompt: refused unless --force, naming the built-in it would shadow.
    const errors = lintSkill(skill).filter((d) => d.severity === "error");
    const builtin = (await builtinSkillNames()).includes(skill.name);
    const shadows = builtin ? `; it would shadow the built-in "${skill.name}" skill` : "";
    if (errors.length > 0 && values.force !== true) {
      throw new CliError(
        `Skill "${skill.name}" fails skillmux skill lint with ${errors.length} error${
          errors.length === 1 ? "" : "s"
        } (first: ${errors[0].message})${shadows}; fix them or use --force to install it anyway`,
      );
    }
    if ((root + sep).startsWith(folders.config + sep)) await ensureConfigDir(ctx);
    const key = `${skill.name}${skill.format === "toml" ? ".toml" : ".md"}`;
    await storage.set(key, text);
    for (const old of existing) if (old !== key) await storage.delete(old);
    for (const d of diagnostics) ctx.err(`warning: ${d.message}`);
    if (errors.length > 0) {
      ctx.err(
        `note: "${skill.name}" misses the quality bar (${errors.length} problems); see skillmux skill lint ${file}`,
      );
    }
    if (builtin) ctx.err(`note: "${skill.name}" now shadows the built-in "${skill.name}" skill`);
    if (ctx.json) {
      return printJson(ctx, { name: skill.name, source: tier, path: join(root, key) }), 0;
    }
    ctx.out(
      `${ctx.paint.ok("✓")} Installed "${skill.name}" in the ${tier} skills: ${join(root, key)}`,
    );
    return 0;
  },
};

async function removeFrom(
  ctx: Context,
  tier: "user" | "community",
  name: string,
): Promise<string[]> {
  const storage = createFsStorage({ root: (await ctx.folders())[tier] });
  const removed: string[] = [];
  for (const layout of LAYOUTS) {
    const key = `${name}${layout}`;
    if (await storage.get(key) !== undefined) removed.push(key);
  }
  for (const key of removed) await storage.delete(key);
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
