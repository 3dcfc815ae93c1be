// `skillmux skill install|update|uninstall|search`: community skills from a registry.

import { createDefaultSources } from "../resolve/default_sources.ts";
import { createResolver } from "../resolve/resolver.ts";
import { defaultRegistry } from "../install/config.ts";
import { installSkills, uninstallSkills, updateSkills } from "../install/install.ts";
import { searchSkills } from "../install/search.ts";
import type { InstallerOptions, InstallResult } from "../install/types.ts";
import { str, type Values } from "./_args.ts";
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
  if (ctx.json) return printJson(ctx, result), 0;
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
  if (result.dryRun) ctx.out("Dry run: nothing was written.");
  return 0;
}

const spec = {
  registry: { type: "string" as const },
  "dry-run": { type: "boolean" as const },
  force: { type: "boolean" as const },
};

const install: Command = {
  words: ["skill", "install"],
  args: "<name>...",
  min: 1,
  max: 100,
  summary: "Install skills from the registry into the community folder (checked by sha256)",
  options: [
    REGISTRY,
    DRY_RUN,
    "--force         replace a copy the lock file does not know or that was edited",
  ],
  details: [
    "Every download is checked against the digest in the registry index before anything is",
    "written; installs are atomic and recorded in skillmux-lock.json in the community folder.",
  ],
  spec,
  async run(ctx, names, values) {
    return report(ctx, await installSkills(names, await installerOptions(ctx, values)));
  },
};

const update: Command = {
  words: ["skill", "update"],
  args: "[name...]",
  max: 100,
  summary: "Update installed community skills to the registry's version (all, or those named)",
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
