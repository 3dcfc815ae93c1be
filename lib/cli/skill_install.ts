// `skillmux skill install|update|uninstall|search`: community skills from a registry.

import { createDefaultSources } from "../resolve/default_sources.ts";
import { createResolver } from "../resolve/resolver.ts";
import { defaultRegistry } from "../install/config.ts";
import { installSkills, uninstallSkills, updateSkills } from "../install/install.ts";
import { installFromSource, parseSkillSource } from "../install/source.ts";
import { builtinSkillNames } from "../resolve/builtin_source.ts";
import { count, printVerdict } from "./skill_add.ts";
import { searchSkills } from "../install/search.ts";
import type { InstallerOptions, InstallResult } from "../install/types.ts";
import { CliError, str, type Values } from "./_args.ts";
import type { Command } from "./_command.ts";
import { type Context, printJson, table } from "./_context.ts";

const REGISTRY =
  "--registry <url>  the registry (default: $SKILLMUX_REGISTRY, else [skills] registry in config.toml)";
const DRY_RUN = "--dry-run         show what would change; write nothing";

async function installerOptions(ctx: Context, values: Values): Promise<InstallerOptions> {
  const { community, config } = await ctx.folders();
  return {
    registry: str(values, "registry") ?? await defaultRegistry(config, ctx.env),
    communityDir: community,
    dryRun: values["dry-run"] === true,
    force: values.force === true,
    signal: ctx.io.signal,
  };
}

function report(ctx: Context, result: InstallResult): number {
  const failed = (result.refused?.length ?? 0) > 0 ? 1 : 0;
  if (ctx.json) return printJson(ctx, result), failed;
  const would = result.dryRun ? "would " : "";
  for (const c of result.changes) {
    const mark = result.dryRun ? "-" : ctx.paint.ok("✓");
    const text = c.action === "install"
      ? `${would}install "${c.name}" ${c.to} (${c.path})`
      : c.action === "update"
      ? `${would}update "${c.name}" ${c.from} → ${c.to} (${c.path})`
      : c.action === "uninstall"
      ? `${would}uninstall "${c.name}"${c.from ? ` ${c.from}` : ""}`
      : `"${c.name}" ${c.to} is up to date`;
    ctx.out(`${mark} ${text.charAt(0).toUpperCase()}${text.slice(1)}`);
  }
  for (const r of result.refused ?? []) {
    ctx.out(`${ctx.paint.bad("✗")} Not updated "${r.name}": ${r.reason}`);
  }
  if (result.dryRun) ctx.out("Dry run: nothing was written.");
  return failed;
}

/** Whether an argument of `skill install` names a source rather than a registry skill. */
export function isSourceSpec(arg: string): boolean {
  return /[/:#\\]/.test(arg) || arg.startsWith(".") || arg.startsWith("~");
}

/** `skill install <git-url|path|site>[#ref]`: the skills of one source, one verdict each. */
async function installSource(ctx: Context, spec: string, values: Values): Promise<number> {
  const { community } = await ctx.folders();
  const skills = values.skill as string[] | undefined;
  const source = parseSkillSource(spec);
  const result = await installFromSource(spec, {
    communityDir: community,
    ...(skills ? { skills } : {}),
    force: values.force === true,
    dryRun: values["dry-run"] === true,
    maxFiles: count(str(values, "max-files"), "--max-files"),
    maxBytes: count(str(values, "max-bytes"), "--max-bytes"),
    signal: ctx.io.signal,
  });
  const refused = result.skills.filter((s) => s.action === "refused").length;
  if (ctx.json) return printJson(ctx, { folder: community, ...result }), refused > 0 ? 1 : 0;
  const pinned = result.source.type === "git" && result.source.commit
    ? ` at ${result.source.commit.slice(0, 12)}`
    : "";
  ctx.out(
    `From ${
      source.type === "well-known" ? "the discovery index of" : source.type
    } ${spec}${pinned}:`,
  );
  if (result.skills.length === 0) ctx.out("No skills found there.");
  const builtins = new Set(await builtinSkillNames());
  for (const verdict of result.skills) printVerdict(ctx, verdict, "the community skills", builtins);
  for (const note of result.notes) ctx.err(`note: ${note}`);
  if (result.skills.length > 1) {
    ctx.out(
      `${result.dryRun ? "Would install" : "Installed"} ${
        result.skills.length - refused
      } of ${result.skills.length} skills${refused ? ` (${refused} refused)` : ""}`,
    );
  }
  if (result.dryRun) ctx.out("Dry run: nothing was written.");
  return refused > 0 || result.skills.length === 0 ? 1 : 0;
}

const spec = {
  registry: { type: "string" as const },
  "dry-run": { type: "boolean" as const },
  force: { type: "boolean" as const },
};
const sourceSpec = {
  ...spec,
  skill: { type: "string" as const, multiple: true },
  "max-files": { type: "string" as const },
  "max-bytes": { type: "string" as const },
};

const install: Command = {
  words: ["skill", "install"],
  args: "<name...|git-url|path|site>[#ref]",
  min: 1,
  max: 100,
  summary: "Install skills into the community folder: from a registry, git, a folder or a site",
  options: [
    REGISTRY,
    DRY_RUN,
    "--force         replace a copy the lock file does not know or that was edited",
    "--skill <name>  from a repository, folder or site, install only this skill (repeatable)",
    "--max-files <n> most files per skill (default 1000)",
    "--max-bytes <n> most bytes per skill, e.g. 50M (default 50M)",
  ],
  details: [
    "Names install from the registry. A git URL (https://github.com/acme/skills#v1.2.0,",
    "git@host:repo, file://…) or a local repository with #ref is cloned and pinned to the commit;",
    "a folder (./skills, /path) is copied; a site (https://example.org) installs from its",
    "/.well-known/agent-skills/index.json, every artifact checked against the index's sha256.",
    "Skills are copied whole (dot folders, .env and key files left out), checked before anything",
    "is written, recorded in skillmux-lock.json (source, ref, commit, digests); never run.",
  ],
  spec: sourceSpec,
  async run(ctx, names, values) {
    if (names.some(isSourceSpec)) {
      if (names.length > 1) {
        throw new CliError("Install from one git repository, folder or site at a time");
      }
      return await installSource(ctx, names[0], values);
    }
    return report(ctx, await installSkills(names, await installerOptions(ctx, values)));
  },
};

const update: Command = {
  words: ["skill", "update"],
  args: "[name...]",
  max: 100,
  summary: "Update installed community skills from where they came from (all, or those named)",
  options: [REGISTRY, DRY_RUN, "--force         replace skills edited since they were installed"],
  spec,
  async run(ctx, names, values) {
    return report(ctx, await updateSkills(names, await installerOptions(ctx, values)));
  },
};

const uninstall: Command = {
  words: ["skill", "uninstall"],
  args: "<name>...",
  min: 1,
  max: 100,
  summary: "Remove community skills and their lock entries",
  options: [DRY_RUN],
  spec: { "dry-run": spec["dry-run"] },
  async run(ctx, names, values) {
    const { community } = await ctx.folders();
    return report(
      ctx,
      await uninstallSkills(names, { communityDir: community, dryRun: values["dry-run"] === true }),
    );
  },
};

const search: Command = {
  words: ["skill", "search"],
  args: "<words>...",
  min: 1,
  max: 50,
  summary: "Search skills by keywords in the registry index and the local sources",
  options: [REGISTRY],
  spec: { registry: spec.registry },
  async run(ctx, words, values) {
    const options = await installerOptions(ctx, values);
    const resolver = createResolver({ sources: await createDefaultSources(ctx.sourceOptions) });
    const { hits, diagnostics } = await searchSkills(words.join(" "), { ...options, resolver });
    if (ctx.json) return printJson(ctx, { hits, diagnostics }), 0;
    for (const d of diagnostics) ctx.err(`warning: ${d}`);
    if (hits.length === 0) {
      ctx.out(`No skill matches "${words.join(" ")}".`);
      return 0;
    }
    const clip = (text: string) => (text.length > 64 ? `${text.slice(0, 63)}…` : text);
    const rows = hits.map((h) => [
      ctx.paint.bold(h.name),
      h.source === "registry" ? `registry ${h.version}` : h.source,
      clip(h.description),
    ]);
    table([["NAME", "SOURCE", "DESCRIPTION"], ...rows]).forEach(ctx.out);
    return 0;
  },
};

/** The community-install commands of the `skill` group. */
export const installCommands: readonly Command[] = [install, update, uninstall, search];
