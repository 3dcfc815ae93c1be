/**
 * `skillmux mcp add|update|list|remove|ping|refresh|import`: the MCP servers in `config.toml`.
 *
 * @module
 */

// Long because: the seven `skillmux mcp` subcommands, each a table entry with its flags and help,
// over shared argument handling (addArguments, selected).

import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { nameFromUrl, parseMcpServersJson } from "../mcp/registry/config_formats.ts";
import type { McpServerConfig } from "../mcp/protocol/types.ts";
import { skillResources } from "../resolve/skill_resources.ts";
import { CliError, splitCommand, str, UsageError } from "./_args.ts";
import type { Command } from "./_command.ts";
import { type Context, ensureConfigDir, printJson, table } from "./_context.ts";
import { cliInvocation } from "./_invocation.ts";
import { headers, onServer, serverLabel, statusNote, view } from "./_mcp_view.ts";
import { didYouMean } from "./_suggest.ts";
import { update } from "./mcp_update.ts";
import { isOAuthError } from "../mcp/auth/errors.ts";
import { endpointOf, login, loginCommands } from "./mcp_login.ts";
import { addFromRegistry, FROM_REGISTRY_HELP, FROM_REGISTRY_SPEC } from "./mcp_from_registry.ts";
import { search } from "./mcp_search.ts";
import { consent } from "./_consent.ts";
import { checkLaunchCommand, describeLaunch } from "../mcp/policy/launch.ts";

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The URL and name of `mcp add`'s arguments, in either order as other MCP CLIs take them:
 * `<url>`, `<url> <name>`, `<name> <url>`, or `<name>` with `--command`.
 */
function addArguments(
  args: readonly string[],
  option: string | undefined,
  command: boolean,
): { url?: string; name?: string } {
  let url: string | undefined;
  let name: string | undefined;
  if (args.length === 2) {
    const urls = args.filter((a) => URL_LIKE.test(a));
    if (urls.length !== 1) {
      throw new UsageError(
        `skillmux mcp add: give a name and a URL, e.g. mcp add docs https://example.org/mcp ` +
          `(got ${urls.length === 2 ? "two URLs" : "no URL"})`,
      );
    }
    url = urls[0];
    name = args.find((a) => a !== url);
  } else if (args.length === 1) {
    // With --command the one argument is the name; else it is the URL (checked as one later).
    if (command && !URL_LIKE.test(args[0])) name = args[0];
    else url = args[0];
  }
  if (name !== undefined && option !== undefined && option !== name) {
    throw new UsageError(`skillmux mcp add: two names given ("${name}" and --name "${option}")`);
  }
  return { url, name: option ?? name };
}

const add: Command = {
  words: ["mcp", "add"],
  args: '[name] <url> | [name] --command "<cmd …>" | --from-registry <name>[@version]',
  max: 2,
  summary: "Register an MCP server (checked, connected and discovered before saving)",
  options: [
    "--name <n>          server name, or give it before the URL (default: host-port of the URL,",
    "                    or the program name)",
    "--api-key <k>       sent as Authorization: Bearer <k>; ${VAR} reads the environment",
    '--header "K: V"     extra HTTP header (repeatable); values may use ${VAR}',
    '--command "<cmd>"   a stdio server: program and arguments, shell-style quoting',
    "--no-verify         save without connecting",
    "--replace           replace a server of the same name",
    "--description <d>   what the server is for (shown by mcp list)",
    "--startup-timeout <ms>  a stdio server's start-up allowance (default 60000: npx -y and",
    "                    uvx fetch the package on first use); saved as startup_timeout_ms",
    "--login             sign in right away when the server needs OAuth (see mcp login)",
    "--no-browser        with --login: print the sign-in URL only",
    ...FROM_REGISTRY_HELP,
  ],
  spec: {
    name: { type: "string" },
    description: { type: "string" },
    "api-key": { type: "string" },
    header: { type: "string", multiple: true },
    command: { type: "string" },
    "no-verify": { type: "boolean" },
    replace: { type: "boolean" },
    login: { type: "boolean" },
    "no-browser": { type: "boolean" },
    ...FROM_REGISTRY_SPEC,
    "startup-timeout": { type: "string" },
  },
  async run(ctx, args, values) {
    const fromRegistry = str(values, "from-registry");
    if (fromRegistry !== undefined) {
      if (args.length > 0 || str(values, "command") !== undefined) {
        throw new UsageError(
          "skillmux mcp add: give --from-registry alone, without a URL or --command",
        );
      }
      return await addFromRegistry(ctx, fromRegistry, values);
    }
    const line = str(values, "command");
    const { url, name } = addArguments(args, str(values, "name"), line !== undefined);
    if ((url === undefined) === (line === undefined)) {
      throw new UsageError("skillmux mcp add: give either a URL or --command, not both or neither");
    }
    const server: McpServerConfig = { name: "" };
    if (url !== undefined) server.url = url;
    else {
      const [command, ...args] = splitCommand(line!);
      if (!command) throw new CliError("--command is empty");
      Object.assign(server, { command, args });
    }
    server.name = name ?? (url !== undefined ? nameFromUrl(url) : basename(server.command!));
    const apiKey = str(values, "api-key");
    if (apiKey !== undefined) server.apiKey = apiKey;
    const extra = headers(values);
    if (extra) server.headers = extra;
    const startup = str(values, "startup-timeout");
    if (startup !== undefined) {
      const ms = Number(startup);
      if (!Number.isInteger(ms) || ms <= 0) {
        throw new UsageError("--startup-timeout must be a positive number of milliseconds");
      }
      if (server.command === undefined) {
        throw new UsageError("--startup-timeout applies to stdio servers (--command) only");
      }
      server.startupTimeoutMs = ms;
    }
    const description = str(values, "description");
    await ensureConfigDir(ctx);
    const registry = await ctx.registry();
    const verify = values["no-verify"] !== true;
    const config = description ? { ...server, description } : server;
    const options = { discover: verify, replace: values.replace === true, timeoutMs: 10_000 };
    let added;
    let signIn = false;
    try {
      added = await registry.add(config, options);
    } catch (error) {
      // A server behind OAuth: keep it, and sign in now (--login) or say how.
      if (!isOAuthError(error, "sign_in_required")) throw error;
      added = await registry.add(config, { ...options, discover: false });
      signIn = true;
    }
    const { server: saved, discovery } = added;
    const offer = signIn && values.login !== true && !ctx.json && ctx.io.ask !== undefined;
    const accepted = offer &&
      /^(y|yes|)$/i.test(
        (await ctx.io.ask!(`"${saved.name}" needs a sign-in (OAuth). Sign in now? [Y/n] `)).trim(),
      );
    if (signIn && (values.login === true || accepted)) {
      const issuer = await login(ctx, saved as typeof saved & { url: string }, {
        browser: values["no-browser"] !== true,
        timeoutMs: 300_000,
      });
      ctx.err(`${ctx.paint.ok("✓")} Signed in to "${saved.name}" (${issuer})`);
      signIn = false;
    }
    if (ctx.json) {
      return printJson(ctx, { server: view(saved), discovery, signInNeeded: signIn }), 0;
    }
    if (signIn) {
      ctx.out(
        `${ctx.paint.ok("✓")} Added "${server.name}" ${server.url} — sign-in needed (OAuth): ` +
          `run ${cliInvocation()} mcp login ${server.name}`,
      );
      return 0;
    }
    const found = discovery
      ? ` — ${serverLabel(discovery.serverInfo)}, ${
        skillResources(discovery.resources).length
      } skills, ${discovery.tools.length} tools`
      : " (not verified)";
    ctx.out(`${ctx.paint.ok("✓")} Added "${server.name}" ${server.url ?? server.command}${found}`);
    return 0;
  },
};

const list: Command = {
  words: ["mcp", "list"],
  args: "",
  summary: "List the registered MCP servers",
  async run(ctx) {
    const servers = (await (await ctx.registry()).list()).map(view);
    const store = await ctx.oauthStore();
    const signedIn = new Set<string>();
    for (const s of servers) {
      if (s.url !== undefined && (await store.get(endpointOf(s.url)))?.tokens) signedIn.add(s.name);
    }
    if (ctx.json) return printJson(ctx, { servers }), 0;
    if (servers.length === 0) {
      ctx.out(
        `No MCP servers registered. Add one with: ${cliInvocation()} mcp add <url> --name <name>`,
      );
      return 0;
    }
    const rows = servers.map((s) => [
      ctx.paint.bold(s.name),
      s.url ?? [s.command, ...(s.args ?? [])].join(" "),
      s.description ?? "",
      [
        s.apiKey ? "api key" : "",
        signedIn.has(s.name) ? "oauth: signed in" : "",
        s.headers.length ? `headers: ${s.headers.join(",")}` : "",
        s.origin ? `from ${s.origin.name} ${s.origin.version}` : "",
      ]
        .filter(Boolean).join("; "),
      s.enabled ? statusNote(s.status) : "disabled",
    ]);
    table([["NAME", "URL / COMMAND", "DESCRIPTION", "NOTES", "STATUS"], ...rows]).forEach(ctx.out);
    ctx.out(`${servers.length} server${servers.length === 1 ? "" : "s"} registered`);
    return 0;
  },
};

const remove: Command = {
  words: ["mcp", "remove"],
  args: "<name-or-url>",
  min: 1,
  summary: "Remove a registered server by name or URL",
  async run(ctx, [target]) {
    const removed = await onServer(ctx, target, async () => (await ctx.registry()).remove(target));
    if (ctx.json) return printJson(ctx, { removed: view(removed) }), 0;
    ctx.out(`${ctx.paint.ok("✓")} Removed "${removed.name}" ${removed.url ?? removed.command}`);
    return 0;
  },
};

async function selected(ctx: Context, args: string[], verb: string): Promise<string[] | undefined> {
  const all = await (await ctx.registry()).list();
  const unknown = args.find((a) => !all.some((s) => s.name === a || s.url === a));
  if (unknown !== undefined) {
    const hint = didYouMean(unknown, all.map((s) => s.name));
    throw new CliError(`No server named "${unknown}" is registered${hint}`);
  }
  const count = args.length > 0 ? args.length : all.filter((s) => s.enabled !== false).length;
  if (count > 1) ctx.err(ctx.paint.dim(`${verb} ${count} servers…`));
  return args.length > 0 ? args : undefined;
}

const ping: Command = {
  words: ["mcp", "ping"],
  args: "[name…]",
  max: Infinity,
  summary:
    "Connect to each server: ✓/✗, version, protocol, latency, skills and tools; exit 1 if any fails",
  details: [
    "Stdio servers are started a few at a time (each given its start-up allowance, then 10 s per",
    "request); a server that does not answer in time is shown as slow, not down.",
  ],
  async run(ctx, args) {
    const names = await selected(ctx, args, "Pinging");
    const results = await (await ctx.registry()).ping(names, { timeoutMs: 10_000 });
    const failed = results.some((r) => !r.ok);
    if (ctx.json) return printJson(ctx, { results }), failed ? 1 : 0;
    if (results.length === 0) {
      ctx.out(
        `No MCP servers registered. Add one with: ${cliInvocation()} mcp add <url> --name <name>`,
      );
    }
    const rows = results.map((r) =>
      r.ok
        ? [
          ctx.paint.ok("✓"),
          r.name,
          serverLabel(r.serverInfo),
          r.protocolVersion,
          `${r.latencyMs.toFixed(0)} ms`,
          `${skillResources(r.discovery.resources).length} skills`,
          `${r.tools} tools`,
        ]
        : r.kind === "TimeoutError"
        ? [ctx.paint.bad("…"), r.name, `slow: ${r.error}`]
        : [
          ctx.paint.bad("✗"),
          r.name,
          r.kind === "OAuthError" && /sign-in needed/.test(r.error)
            ? `${r.error}: run ${cliInvocation()} mcp login ${r.name}`
            : r.error,
        ]
    );
    table(rows).forEach(ctx.out);
    return failed ? 1 : 0;
  },
};

const refresh: Command = {
  words: ["mcp", "refresh"],
  args: "[name…]",
  max: Infinity,
  summary: "Re-discover the tools and skills of each server and cache them; exit 1 if any fails",
  async run(ctx, args) {
    const names = await selected(ctx, args, "Refreshing");
    const results = await (await ctx.registry()).refresh(names, { timeoutMs: 10_000 });
    const failed = results.some((r) => !r.ok);
    if (ctx.json) return printJson(ctx, { results }), failed ? 1 : 0;
    table(
      results.map((r) =>
        r.ok
          ? [
            ctx.paint.ok("✓"),
            r.name,
            `${skillResources(r.discovery.resources).length} skills`,
            `${r.discovery.tools.length} tools`,
          ]
          : [ctx.paint.bad(r.kind === "TimeoutError" ? "…" : "✗"), r.name, r.error]
      ),
    ).forEach(ctx.out);
    return failed ? 1 : 0;
  },
};

const importJson: Command = {
  words: ["mcp", "import"],
  args: "<mcp.json>",
  min: 1,
  summary:
    "Register every server of an mcpServers JSON file (validated, shown and confirmed first; not connected)",
  options: [
    "--replace    replace servers of the same name",
    "--yes        save without asking (what each server runs is still printed)",
  ],
  details: [
    "Each command is shown exactly (program, arguments, environment with secrets masked) before",
    "anything is saved; a command that is a shell line (spaces, ;, &&, |, $(…)) is refused.",
  ],
  spec: { replace: { type: "boolean" }, yes: { type: "boolean" } },
  async run(ctx, [file], values) {
    const text = await readFile(file, "utf8").catch((error: Error) => {
      throw new CliError(`Cannot read ${file}: ${error.message}`, { cause: error });
    });
    const servers = parseMcpServersJson(text);
    servers.forEach(checkLaunchCommand);
    await consent(
      ctx,
      servers.map((s) => ({ name: s.name, launch: describeLaunch(s) })),
      values.yes === true,
      "Import",
    );
    await ensureConfigDir(ctx);
    const added = await (await ctx.registry()).import(servers, {
      replace: values.replace === true,
    });
    if (ctx.json) return printJson(ctx, { imported: added.map(view) }), 0;
    ctx.out(
      `${ctx.paint.ok("✓")} Imported ${added.length} server${added.length === 1 ? "" : "s"}: ${
        added.map((s) => s.name).join(", ")
      }`,
    );
    return 0;
  },
};

/** The `mcp` command group. */
export const mcpCommands: readonly Command[] = [
  add,
  search,
  update,
  list,
  remove,
  ping,
  refresh,
  importJson,
  ...loginCommands,
];
