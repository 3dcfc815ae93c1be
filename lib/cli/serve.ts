/**
 * `skillmux serve [folder]`: serve a skills folder (default: the built-in skills) as an MCP
 * server until SIGINT or SIGTERM.
 *
 * @module
 */

// Long because: `skillmux serve` in full: the stdio and HTTP modes, the gateway's flags and
// reports, and the signal handling of one long-running command.

import process from "node:process";
import { resolve } from "node:path";
import type { ServeSkillsOptions, SkillsServer } from "../server/types.ts";
import type { GatewayServer, ServeGatewayOptions } from "../server/gateway_types.ts";
import { createResolver } from "../resolve/resolver.ts";
import { createDefaultSources, defaultBuiltinEnabled } from "../resolve/default_sources.ts";
import type { SkillSource } from "../resolve/types.ts";
import { createFsStorage } from "../storage/fs.ts";
import { CliError, str } from "./_args.ts";
import type { Command } from "./_command.ts";
import { ensureConfigDir, printJson } from "./_context.ts";
import { cliInvocation } from "./_invocation.ts";
import { hostConfig } from "./_host_config.ts";
import { commandServers } from "./_servers.ts";
import { readGatewayConfig } from "./_gateway_config.ts";
import { heldToolsNotice } from "../catalog/search/held_tools.ts";
import { feedbackOption } from "./_feedback.ts";
import type { FeedbackRequest } from "../catalog/model/types.ts";

interface ServerModule {
  serveSkills(options?: ServeSkillsOptions): Promise<SkillsServer>;
  serveGateway(options?: ServeGatewayOptions): Promise<GatewayServer>;
}

type Ctx = Parameters<Command["run"]>[0];

/** What `--gateway` was given: `--discover`, and the pins of `--pin` (config.toml's added). */
interface GatewayFlags {
  discover: boolean;
  pins: string[];
  /** Labelled requests `find_tools` ranks with (`--feedback`). */
  feedback?: readonly FeedbackRequest[];
}

/**
 * The gateway's sources, as the other commands see them: skills from the whole default chain
 * (user, community, registered MCP servers, built-in; the user and community folders watched),
 * the registry in config.toml (stored OAuth tokens used), approvals in approvals.json (what
 * `skillmux approve` writes), the pins of `--pin` and of `[gateway] pinned`.
 */
async function gatewayOptions(
  ctx: Ctx,
  flags: GatewayFlags,
): Promise<{ options: ServeGatewayOptions; dispose(): Promise<void> }> {
  const config = await ensureConfigDir(ctx);
  const folders = await ctx.folders();
  const pinned = [...new Set([...(await readGatewayConfig(config)).pinned, ...flags.pins])];
  // Cached discovery first, stale servers refreshed a few at a time, skills read only from
  // servers that have them: the gateway's first listing starts no server it does not need.
  const servers = await commandServers(ctx, await ctx.registry({ client: false }));
  const sources = await servers.skillSources(await createDefaultSources(ctx.sourceOptions));
  const options: ServeGatewayOptions = {
    registry: servers.registry,
    resolver: createResolver({ sources }),
    approvals: { storage: createFsStorage({ root: config, private: true }) },
    connect: { stdio: ctx.stdio, auth: { store: await ctx.oauthStore() } },
    approveCommand: `${cliInvocation()} approve`,
    discover: flags.discover,
    ...(pinned.length > 0 ? { pinned } : {}),
    watch: [folders.user, folders.community],
    ...(flags.feedback ? { feedback: flags.feedback } : {}),
  };
  const dispose = async () => {
    const all = sources.flat() as Array<SkillSource & { dispose?: () => Promise<void> }>;
    await Promise.all(all.map((s) => s.dispose?.().catch(() => {})));
  };
  return { options, dispose };
}

/** Resolves when `signal` aborts, or on SIGINT/SIGTERM when there is no signal. */
function stopped(signal: AbortSignal | undefined): Promise<string> {
  if (signal) {
    return new Promise((done) => {
      if (signal.aborted) done("abort");
      else signal.addEventListener("abort", () => done("abort"), { once: true });
    });
  }
  // Listeners stay installed: removing the last one lets a second signal kill the
  // process before it has closed (and Deno reports a signal exit then).
  return new Promise((done) => {
    process.on("SIGINT", () => done("SIGINT"));
    process.on("SIGTERM", () => done("SIGTERM"));
  });
}

/**
 * The stdio server until stdin closes (or SIGINT/SIGTERM). Writes nothing to stdout itself:
 * stdout belongs to the protocol.
 */
async function serveStdio(
  ctx: Ctx,
  folder: string | undefined,
  verbose: boolean,
  gateway: GatewayFlags | undefined,
): Promise<number> {
  const { serveSkills, serveGateway } = await import("../server/mod.ts") as ServerModule;
  const log = verbose ? ctx.err : undefined;
  let dispose = () => Promise.resolve();
  let server: SkillsServer;
  if (gateway !== undefined) {
    const made = await gatewayOptions(ctx, gateway);
    dispose = made.dispose;
    server = await startGateway(serveGateway, { ...made.options, transport: "stdio", log });
    await reportPins(ctx, server as GatewayServer);
  } else {
    server = await serveSkills({
      transport: "stdio",
      folder: folder === undefined ? undefined : resolve(folder),
      log,
    });
  }
  // Stderr is the host's log: a refused skill is named there, with why.
  await reportRefused(ctx, server);
  const why = await Promise.race([
    server.closed.then(() => "stdin closed"),
    stopped(ctx.io.signal),
  ]);
  if (verbose) ctx.err(`Stopping (${why})…`);
  await server.close();
  await dispose();
  return 0;
}

/** The gateway, a bad option (a pin that is not an id or a glob) said as a CLI error. */
async function startGateway(
  serveGateway: ServerModule["serveGateway"],
  options: ServeGatewayOptions,
): Promise<GatewayServer> {
  try {
    return await serveGateway(options);
  } catch (error) {
    if (error instanceof TypeError && /^Cannot serve the gateway/.test(error.message)) {
      throw new CliError(error.message);
    }
    throw error;
  }
}

/** Warn on stderr of pinned tools that wait for approval and of pins that match no tool. */
async function reportPins(ctx: Ctx, server: GatewayServer): Promise<void> {
  const { held, unknown } = await server.pins();
  const notice = heldToolsNotice(held, { command: `${cliInvocation()} approve` });
  if (notice) ctx.err(`warning: pinned, not listed: ${notice}`);
  for (const pin of unknown) {
    ctx.err(
      `warning: no tool matches the pin "${pin}" (see the ids with ${cliInvocation()} tools)`,
    );
  }
}

/** Warn on stderr of each skill the server holds but does not serve, with why. */
async function reportRefused(ctx: Ctx, server: SkillsServer): Promise<number> {
  const { served, refused } = await server.skills().catch(() => ({ served: [], refused: [] }));
  for (const { name, reason } of refused) ctx.err(`warning: not serving "${name}": ${reason}`);
  return served.length;
}

/** `serve`. */
export const serve: Command = {
  words: ["serve"],
  args: "[folder]",
  max: 1,
  summary: "Serve a skills folder (default: the built-in skills) as an MCP server",
  options: [
    "--port <n>       port (default 0: any free port)",
    "--host <h>       interface (default 127.0.0.1)",
    "--token <t>      require Authorization: Bearer <t>",
    "--verbose        log one line per request on stderr",
    "--sessions       keep sessions (Mcp-Session-Id): clients hear when the folder's skills change",
    "--stdio          speak MCP on stdin/stdout (for a host's `command`); exits when stdin closes",
    "--gateway        also serve the approved tools of every registered server (one entry for a host)",
    "--discover       with --gateway: list only find_tools and call_tool instead of every tool",
    "--pin <id>       with --gateway: always list this tool (an id or a glob; repeatable)",
    "--feedback <f>   with --gateway: find_tools ranks with your labelled requests (an eval file)",
    "--print-config   print the MCP host configuration for `serve --stdio` and exit",
    "--for <host>     with --print-config: claude (Claude Desktop/Code), cursor or vscode",
  ],
  details: [
    "Prints the URL and an mcpServers snippet, then runs until SIGINT or SIGTERM.",
    "With --stdio, stdout carries only JSON-RPC; logs go to stderr.",
    "With --gateway: skills from every source, and the tools you approved (skillmux approve)",
    "under ids like everything__echo; new or changed tools stay out until approved.",
    'Pins also come from config.toml: [gateway] pinned = ["everything__echo"].',
  ],
  spec: {
    stdio: { type: "boolean" },
    "print-config": { type: "boolean" },
    for: { type: "string" },
    gateway: { type: "boolean" },
    discover: { type: "boolean" },
    pin: { type: "string", multiple: true },
    feedback: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    token: { type: "string" },
    verbose: { type: "boolean" },
    sessions: { type: "boolean" },
  },
  async run(ctx, [folder], values) {
    const pins = (values.pin ?? []) as string[];
    const feedbackFile = str(values, "feedback");
    if (feedbackFile !== undefined && values.gateway !== true) {
      throw new CliError("--feedback goes with --gateway (find_tools ranks the gateway's tools)");
    }
    const gateway: GatewayFlags | undefined = values.gateway === true
      ? { discover: values.discover === true, pins, feedback: await feedbackOption(values) }
      : undefined;
    if (values.discover === true && gateway === undefined) {
      throw new CliError("--discover goes with --gateway");
    }
    if (pins.length > 0 && gateway === undefined) throw new CliError("--pin goes with --gateway");
    if (values.sessions === true && (gateway !== undefined || values.stdio === true)) {
      throw new CliError(
        "--sessions is for serve over HTTP without --gateway (the gateway and stdio keep sessions)",
      );
    }
    if (gateway !== undefined && folder !== undefined) {
      throw new CliError(
        "--gateway serves the skills of every source (user, community, MCP, built-in): drop the folder",
      );
    }
    if (
      gateway === undefined && folder === undefined && values["print-config"] !== true &&
      !await defaultBuiltinEnabled(ctx.sourceOptions)
    ) {
      throw new CliError(
        "serve without a folder serves the built-in skills, which are turned off (--no-builtin, " +
          "SKILLMUX_NO_BUILTIN or [skills] builtin = false): " +
          "give a folder, or use --gateway for the skills of every source",
      );
    }
    if (values["print-config"] === true) {
      const host = str(values, "for");
      const args = gateway === undefined
        ? ["serve", "--stdio", ...(folder === undefined ? [] : [resolve(folder)])]
        : [
          "serve",
          "--gateway",
          "--stdio",
          ...(gateway.discover ? ["--discover"] : []),
          ...gateway.pins.flatMap((pin) => ["--pin", pin]),
          ...(feedbackFile === undefined ? [] : ["--feedback", resolve(feedbackFile)]),
        ];
      const config = hostConfig(host, args);
      ctx.out(JSON.stringify(config, null, 2));
      // The entry runs this installation: it serves only if the MCP SDK (an optional peer) is there.
      if (!JSON.stringify(config).includes('"npx"')) {
        const sdk = "@modelcontextprotocol/sdk/server/mcp.js";
        await import(sdk).catch(() =>
          ctx.err(
            "note: serving needs the MCP SDK beside skillmux, and it is not installed: " +
              "npm install @modelcontextprotocol/sdk",
          )
        );
      }
      return 0;
    }
    if (str(values, "for") !== undefined) throw new CliError("--for goes with --print-config");
    if (values.stdio === true) {
      return await serveStdio(ctx, folder, values.verbose === true, gateway);
    }
    const portText = str(values, "port");
    const port = portText === undefined ? 0 : Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new CliError(`Invalid --port "${portText}": expected 0–65535`);
    }
    const { serveSkills, serveGateway } = await import("../server/mod.ts") as ServerModule; // lazy: only `serve` loads the server
    const token = str(values, "token");
    const common = {
      host: str(values, "host"),
      port,
      token,
      log: values.verbose === true ? ctx.err : undefined,
    };
    let dispose = () => Promise.resolve();
    const started = gateway === undefined
      ? serveSkills({
        ...common,
        folder: folder === undefined ? undefined : resolve(folder),
        sessions: values.sessions === true,
      })
      : gatewayOptions(ctx, gateway).then((made) => {
        dispose = made.dispose;
        return startGateway(serveGateway, { ...made.options, ...common });
      });
    const server = await started.catch((error) => {
      if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
      throw new CliError(
        `Port ${port} is taken (something else listens there): pick another with --port <n>, ` +
          "or --port 0 for any free port",
      );
    });
    const snippet = {
      mcpServers: {
        skillmux: {
          type: "http",
          url: server.url,
          ...(token ? { headers: { Authorization: "Bearer <token>" } } : {}),
        },
      },
    };
    const count = await reportRefused(ctx, server);
    if (gateway !== undefined) await reportPins(ctx, server as GatewayServer);
    if (ctx.json) printJson(ctx, { url: server.url, folder: folder ?? null, ...snippet });
    else {
      const what = gateway !== undefined
        ? `the gateway (${count} skills, and the approved tools of the registered servers)`
        : folder
        ? `${count} skills from ${resolve(folder)}`
        : `the ${count} built-in skills`;
      ctx.out(`Serving ${what} at ${server.url}`);
      ctx.out(
        `Connect with: ${cliInvocation()} mcp add ${server.url} --name skillmux${
          token ? " --api-key <token>" : ""
        }`,
      );
      ctx.out("or add to an MCP client's configuration:");
      ctx.out(JSON.stringify(snippet, null, 2));
      ctx.out(ctx.paint.dim("Press Ctrl+C to stop."));
    }
    const why = await stopped(ctx.io.signal);
    ctx.err(`Stopping (${why})…`);
    await server.close();
    await dispose();
    return 0;
  },
};
