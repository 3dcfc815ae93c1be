// `skillmux mcp add --from-registry <name>[@version]`: a server from an MCP registry, with what
// it needs asked (secrets without echo) or given with --set, what it will run shown, and saved
// after a yes (or --yes). The entry keeps its origin, so `mcp update` can offer newer versions.

import { isDirectoryError } from "../mcp/directory/errors.ts";
import { planServer, type ServerPlan } from "../mcp/directory/plan.ts";
import type { DirectoryEntry, ServerDirectory } from "../mcp/directory/types.ts";
import { skillResources } from "../resolve/skill_resources.ts";
import { CliError, str, UsageError, type Values } from "./_args.ts";
import { consent } from "./_consent.ts";
import { type Context, ensureConfigDir, printJson } from "./_context.ts";
import { view } from "./_mcp_view.ts";
import { chosenDirectories } from "./_registries.ts";
import { prepareBundle } from "./_bundle.ts";
import { askMissing } from "./_ask.ts";
import { savePreview } from "./_previews.ts";

/** The options `mcp add` takes for `--from-registry`. */
export const FROM_REGISTRY_SPEC = {
  "from-registry": { type: "string" as const },
  registry: { type: "string" as const },
  kind: { type: "string" as const },
  set: { type: "string" as const, multiple: true },
  option: { type: "string" as const },
  yes: { type: "boolean" as const },
};

/** Their help lines. */
export const FROM_REGISTRY_HELP = [
  "--from-registry <n> a server of an MCP registry: name[@version] (see mcp search)",
  "--registry <r>      which registry: a configured name, a URL or a BioContext folder",
  "--set NAME=value    a value it needs (repeatable); --set NAME alone reads $NAME",
  "--option <n>        which way to run it (0 = the first; see mcp search --json)",
  "--yes               save without asking (what will run is still printed)",
];

/** `--set` values by name; `NAME` alone takes the environment variable of that name. */
export function setValues(ctx: Context, values: Values): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of (values.set as string[] | undefined) ?? []) {
    const at = item.indexOf("=");
    const name = at < 0 ? item : item.slice(0, at);
    if (name === "") throw new UsageError(`--set "${item}": expected NAME=value`);
    const value = at < 0 ? ctx.env[name] : item.slice(at + 1);
    if (value === undefined) throw new CliError(`--set ${name}: the environment has no ${name}`);
    out[name] = value;
  }
  return out;
}

/** The entry `ref` (`name[@version]`) from the first of `directories` that has it. */
export async function findEntry(
  ctx: Context,
  directories: readonly ServerDirectory[],
  ref: string,
): Promise<DirectoryEntry> {
  const at = ref.indexOf("@");
  const name = at < 0 ? ref : ref.slice(0, at);
  const version = at < 0 ? undefined : ref.slice(at + 1) || undefined;
  const misses: string[] = [];
  for (const directory of directories) {
    try {
      return await directory.get(name, version, { signal: ctx.io.signal });
    } catch (error) {
      if (!isDirectoryError(error) || error.code !== "not-found" || directories.length === 1) {
        throw error;
      }
      misses.push(directory.id);
    }
  }
  throw new CliError(
    `No registry has ${ref} (asked ${misses.join(", ")}); try skillmux mcp search`,
  );
}

/** Plan `entry` with `given`, asking for what is missing until nothing is. */
export async function completePlan(
  ctx: Context,
  entry: DirectoryEntry,
  options: { option?: number; name?: string },
  given: Record<string, string>,
): Promise<ServerPlan> {
  let plan = planServer(entry, { ...options, values: given });
  await askMissing(ctx, `"${plan.config.name}"`, plan.missing, given);
  if (plan.missing.length > 0) plan = planServer(entry, { ...options, values: given });
  return plan;
}

function optionIndex(values: Values): number | undefined {
  const text = str(values, "option");
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    throw new UsageError(`--option must be 0, 1, 2…, not "${text}"`);
  }
  return n;
}

/** Run `mcp add --from-registry`. */
export async function addFromRegistry(ctx: Context, ref: string, values: Values): Promise<number> {
  const directories = await chosenDirectories(ctx, str(values, "registry"), str(values, "kind"));
  const entry = await findEntry(ctx, directories, ref);
  const { server } = entry;
  ctx.err(
    `${ctx.paint.bold(server.name)} ${server.version} from ${entry.directory}${
      entry.status === "active" ? "" : ctx.paint.bad(` [${entry.status}]`)
    }`,
  );
  ctx.err(
    `  ${(server.title ? `${server.title}: ` : "") + server.description.replace(/\s+/g, " ")}`,
  );
  const given = setValues(ctx, values);
  const name = str(values, "name");
  let plan = await completePlan(ctx, entry, { option: optionIndex(values), name }, given);
  plan.notes.forEach((note) => ctx.err(`  ${ctx.paint.bad("note:")} ${note}`));
  let cleanup: (() => Promise<void>) | undefined;
  if (plan.bundle) ({ plan, cleanup } = await prepareBundle(ctx, plan));
  const verify = values["no-verify"] !== true;
  try {
    await consent(ctx, [{ name: plan.config.name, launch: plan.launch }], values.yes === true);
    await ensureConfigDir(ctx);
    const registry = await ctx.registry();
    const { server: saved, discovery } = await registry.add(plan.config, {
      discover: verify,
      replace: values.replace === true,
      timeoutMs: plan.config.command ? 120_000 : 15_000,
    });
    cleanup = undefined;
    if (!discovery && entry.tools?.length) {
      await savePreview((await ctx.folders()).config, saved.id, entry.tools);
      ctx.err(
        ctx.paint.dim(
          `  ${entry.tools.length} tools listed from the registry (held until approved)`,
        ),
      );
    }
    if (ctx.json) {
      return printJson(ctx, { server: view(saved), origin: saved.origin, discovery }), 0;
    }
    const found = discovery
      ? ` — ${discovery.serverInfo.name} v${discovery.serverInfo.version}, ${
        skillResources(discovery.resources).length
      } skills, ${discovery.tools.length} tools`
      : " (not verified)";
    ctx.out(
      `${ctx.paint.ok("✓")} Added "${saved.name}" (${server.name} ${server.version})${found}`,
    );
    return 0;
  } finally {
    await cleanup?.();
  }
}
