// `skillmux mcp update <name>` of a server added from an MCP registry, with no change given:
// ask its registry for a newer version, show what changes (version, command or URL, the
// environment and headers), and apply it after a yes (or --yes). Values given when it was
// added are kept; secrets stay where they are stored.

import { planServer, type ServerPlan } from "../mcp/directory/plan.ts";
import { launchOptions } from "../mcp/directory/requirements.ts";
import type { DirectoryEntry } from "../mcp/directory/types.ts";
import { describeLaunch, type LaunchDescription } from "../mcp/policy/launch.ts";
import type { RegisteredServer, ServerPatch } from "../mcp/registry/records.ts";
import { CliError, str, type Values } from "./_args.ts";
import { consent } from "./_consent.ts";
import { type Context, printJson } from "./_context.ts";
import { onServer, view } from "./_mcp_view.ts";
import { originDirectory } from "./_registries.ts";
import { completePlan, setValues } from "./mcp_from_registry.ts";

/** The help lines of the upgrade options. */
export const UPGRADE_HELP = [
  "With no change given, a server added from an MCP registry is checked for a newer version:",
  "--check             only show whether a newer version exists and what would change",
  "--to <version>      that version instead of the latest",
  "--set NAME=value    a value the new version needs (repeatable)",
  "--yes               apply without asking (what will run is still printed)",
];

/** The stored values the new version may reuse: the recorded ones, and its secrets as stored. */
function knownValues(server: RegisteredServer, entry: DirectoryEntry, option: number | undefined) {
  const chosen = launchOptions(entry).find((o) => o.index === option && o.supported) ??
    launchOptions(entry).find((o) => o.supported);
  const names = new Set(chosen?.needs.map((n) => n.name) ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(server.origin?.values ?? {})) {
    if (names.has(name)) out[name] = value;
  }
  for (const need of chosen?.needs ?? []) {
    const stored = server.env?.[need.name] ?? server.headers?.[need.name];
    if (stored !== undefined && out[need.name] === undefined) out[need.name] = stored;
  }
  return { values: out, option: chosen?.index };
}

/** One line per difference between what runs now and what will run. */
function changes(before: LaunchDescription, after: LaunchDescription): string[] {
  const out: string[] = [];
  const line = (d: LaunchDescription) => d.commandLine ?? d.url ?? "";
  if (line(before) !== line(after)) out.push(`  - ${line(before)}`, `  + ${line(after)}`);
  const names = (d: LaunchDescription) => new Set([...d.env, ...d.headers].map((v) => v.name));
  const [was, will] = [names(before), names(after)];
  for (const n of will) {
    if (!was.has(n)) out.push(`  + ${after.kind === "stdio" ? "env" : "header"} ${n}`);
  }
  for (const n of was) {
    if (!will.has(n)) out.push(`  - ${before.kind === "stdio" ? "env" : "header"} ${n}`);
  }
  return out;
}

/** The patch that makes the stored server run as `config` does. */
function patchOf(c: ServerPlan["config"]): ServerPatch {
  const patch: ServerPatch = { origin: c.origin ?? null, description: c.description ?? null };
  if (c.url !== undefined) {
    Object.assign(patch, {
      url: c.url,
      headers: c.headers ?? null,
      apiKey: c.apiKey ?? null,
      transport: c.transport ?? null,
    });
  } else Object.assign(patch, { command: c.command, args: c.args ?? null, env: c.env ?? null });
  return patch;
}

/** Run the upgrade of `target`. */
export async function upgrade(ctx: Context, target: string, values: Values): Promise<number> {
  const registry = await ctx.registry();
  const server = await onServer(ctx, target, async () => {
    const found = await registry.get(target);
    if (!found) throw new CliError(`No server named "${target}" is registered`);
    return found;
  });
  const origin = server.origin;
  if (!origin) {
    throw new CliError(
      `"${server.name}" was not added from an MCP registry, so there is no newer version to ` +
        "look for: give a change (see skillmux mcp update --help)",
    );
  }
  const directory = await originDirectory(ctx, origin.registry);
  const wanted = str(values, "to");
  const entry = await directory.get(origin.name, wanted, { signal: ctx.io.signal });
  const from = `${origin.name} ${origin.version}`;
  if (entry.server.version === origin.version) {
    if (ctx.json) {
      return printJson(ctx, { server: server.name, upToDate: true, version: origin.version }), 0;
    }
    ctx.out(`${ctx.paint.ok("✓")} "${server.name}" is up to date (${from} from ${directory.id})`);
    return 0;
  }
  const known = knownValues(server, entry, origin.option);
  const given = { ...known.values, ...setValues(ctx, values) };
  const check = values.check === true;
  const plan = check
    ? planServer(entry, { option: known.option, name: server.name, values: given })
    : await completePlan(ctx, entry, { option: known.option, name: server.name }, given);
  const diff = changes(describeLaunch(server), plan.launch);
  if (ctx.json && check) {
    return printJson(ctx, {
      server: server.name,
      from: origin.version,
      to: entry.server.version,
      status: entry.status,
      changes: diff.map((l) => l.trim()),
      missing: plan.missing.map((m) => m.name),
    }),
      0;
  }
  ctx.err(`"${server.name}": ${from} → ${entry.server.version} (${directory.id})`);
  plan.notes.forEach((note) => ctx.err(`  note: ${note}`));
  (diff.length ? diff : ["  (runs the same way; only the version differs)"]).forEach((l) =>
    ctx.err(l)
  );
  if (check) {
    ctx.out(
      `Update available: "${server.name}" ${origin.version} → ${entry.server.version}; apply with skillmux mcp update ${server.name}`,
    );
    return 0;
  }
  if (plan.bundle) throw new CliError("Updating an mcpb server: remove it and add the new version");
  await consent(ctx, [{ name: server.name, launch: plan.launch }], values.yes === true, "Update");
  const { server: saved } = await registry.update(server.id, patchOf(plan.config), {
    ...(values["no-verify"] === true ? { discover: false } : {}),
    timeoutMs: plan.config.command ? 120_000 : 15_000,
  });
  if (ctx.json) return printJson(ctx, { server: view(saved), origin: saved.origin }), 0;
  ctx.out(`${ctx.paint.ok("✓")} Updated "${saved.name}" to ${origin.name} ${entry.server.version}`);
  return 0;
}
