// `skillmux mcp search <words>`: find servers in MCP registries — what each is, how it runs and
// what it needs — page by page.

import { type LaunchOption, launchOptions } from "../mcp/directory/requirements.ts";
import { searchServers } from "../mcp/directory/search.ts";
import type { DirectoryEntry } from "../mcp/directory/types.ts";
import { str, UsageError } from "./_args.ts";
import type { Command } from "./_command.ts";
import { type Context, printJson, table } from "./_context.ts";
import { chosenDirectories } from "./_registries.ts";

/** `API_KEY* (secret)`-style list of what an option needs (* = required). */
export function needsText(option: LaunchOption | undefined): string {
  if (!option) return "";
  return option.needs.map((n) => `${n.name}${n.required ? "*" : ""}${n.secret ? " (secret)" : ""}`)
    .join(", ");
}

/** An entry as `--json` shows it. */
export function entryView(entry: DirectoryEntry) {
  return {
    name: entry.server.name,
    ...(entry.server.title ? { title: entry.server.title } : {}),
    description: entry.server.description,
    version: entry.server.version,
    status: entry.status,
    ...(entry.statusMessage ? { statusMessage: entry.statusMessage } : {}),
    registry: entry.directory,
    ...(entry.server.websiteUrl ? { websiteUrl: entry.server.websiteUrl } : {}),
    ...(entry.server.icons ? { icons: entry.server.icons } : {}),
    options: launchOptions(entry),
    ...(entry.tools ? { tools: entry.tools.map((t) => t.name) } : {}),
  };
}

function row(ctx: Context, entry: DirectoryEntry): string[] {
  const options = launchOptions(entry);
  const runnable = options.filter((o) => o.supported);
  const first = runnable[0] ?? options[0];
  const status = entry.status === "active" ? "" : ctx.paint.bad(` [${entry.status}]`);
  const about = (entry.server.title ? `${entry.server.title}: ` : "") + entry.server.description;
  return [
    ctx.paint.bold(entry.server.name) + status,
    entry.server.version,
    [...new Set(runnable.map((o) => o.runs))].join(", ") || "(cannot run)",
    needsText(first) || "-",
    about.replace(/\s+/g, " ").slice(0, 80),
  ];
}

export const search: Command = {
  words: ["mcp", "search"],
  args: "<words…>",
  min: 0,
  max: 20,
  summary: "Find servers in MCP registries: what each does, how it runs and what it needs",
  options: [
    "--registry <r>   a configured registry's name, a URL or a BioContext folder (default: every",
    "                 [[mcp.registries]] of config.toml, else registry.modelcontextprotocol.io)",
    '--kind <k>       with a URL: "official" (the /v0.1/ API, default) or "biocontext"',
    "--limit <n>      servers per page and registry (default 20, at most 100)",
    "--cursor <c>     the next page (printed under each page)",
  ],
  details: [
    "NEEDS lists the values the first way to run takes: * required, (secret) asked without echo.",
    "Add one with: skillmux mcp add --from-registry <name>[@version]",
  ],
  spec: {
    registry: { type: "string" },
    kind: { type: "string" },
    limit: { type: "string" },
    cursor: { type: "string" },
  },
  async run(ctx, args, values) {
    const limitText = str(values, "limit");
    const limit = limitText === undefined ? undefined : Number(limitText);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0 && limit <= 100)) {
      throw new UsageError(`--limit must be a whole number from 1 to 100, not "${limitText}"`);
    }
    const directories = await chosenDirectories(ctx, str(values, "registry"), str(values, "kind"));
    const query = args.join(" ");
    const page = await searchServers(query, {
      directories,
      cursor: str(values, "cursor"),
      limit,
      signal: ctx.io.signal,
    });
    if (ctx.json) {
      return printJson(ctx, {
        query,
        entries: page.entries.map(entryView),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        skipped: page.skipped ?? [],
        failures: page.failures,
      }),
        0;
    }
    for (const failure of page.failures) ctx.err(`${ctx.paint.bad("✗")} ${failure}`);
    for (const note of page.skipped ?? []) ctx.err(ctx.paint.dim(`skipped: ${note}`));
    if (page.entries.length === 0) {
      ctx.out(`No server matches "${query}" in ${directories.map((d) => d.id).join(", ")}`);
    } else {
      table([
        ["NAME", "VERSION", "RUNS", "NEEDS", "DESCRIPTION"],
        ...page.entries.map((e) => row(ctx, e)),
      ])
        .forEach(ctx.out);
    }
    if (page.nextCursor) {
      const quote = (a: string) => /^[\w.\/:@-]+$/.test(a) ? a : JSON.stringify(a);
      const registry = str(values, "registry");
      const kind = str(values, "kind");
      const line = [
        "skillmux mcp search",
        ...args.map(quote),
        ...(registry ? ["--registry", quote(registry)] : []),
        ...(kind ? ["--kind", kind] : []),
        ...(limit ? ["--limit", String(limit)] : []),
        "--cursor",
        quote(page.nextCursor),
      ];
      ctx.out(ctx.paint.dim(`More: ${line.join(" ")}`));
    }
    return 0;
  },
};
