/**
 * `skillmux serve [folder]`: serve a skills folder (default: the built-in skills) as an MCP
 * server until SIGINT or SIGTERM.
 *
 * @module
 */

import process from "node:process";
import { resolve } from "node:path";
import type { ServeSkillsOptions, SkillsServer } from "../server/types.ts";
import { CliError, str } from "./_args.ts";
import type { Command } from "./_command.ts";
import { printJson } from "./_context.ts";
import { cliInvocation } from "./_invocation.ts";
import { hostConfig } from "./_host_config.ts";

interface ServerModule {
  serveSkills(options?: ServeSkillsOptions): Promise<SkillsServer>;
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
  ctx: Parameters<Command["run"]>[0],
  folder: string | undefined,
  verbose: boolean,
): Promise<number> {
  const { serveSkills } = await import("../server/mod.ts") as ServerModule;
  const server = await serveSkills({
    transport: "stdio",
    folder: folder === undefined ? undefined : resolve(folder),
    log: verbose ? ctx.err : undefined,
  });
  const why = await Promise.race([
    server.closed.then(() => "stdin closed"),
    stopped(ctx.io.signal),
  ]);
  if (verbose) ctx.err(`Stopping (${why})…`);
  await server.close();
  return 0;
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
    "--stdio          speak MCP on stdin/stdout (for a host's `command`); exits when stdin closes",
    "--print-config   print the MCP host configuration for `serve --stdio` and exit",
    "--for <host>     with --print-config: claude (Claude Desktop/Code), cursor or vscode",
  ],
  details: [
    "Prints the URL and an mcpServers snippet, then runs until SIGINT or SIGTERM.",
    "With --stdio, stdout carries only JSON-RPC; logs go to stderr.",
  ],
  spec: {
    stdio: { type: "boolean" },
    "print-config": { type: "boolean" },
    for: { type: "string" },
    gateway: { type: "boolean" },
    port: { type: "string" },
    host: { type: "string" },
    token: { type: "string" },
    verbose: { type: "boolean" },
  },
  async run(ctx, [folder], values) {
    if (values.gateway === true) {
      throw new CliError("--gateway is not available yet (issue 24): serve skills without it");
    }
    if (values["print-config"] === true) {
      const host = str(values, "for");
      const args = ["serve", "--stdio", ...(folder === undefined ? [] : [resolve(folder)])];
      ctx.out(JSON.stringify(hostConfig(host, args), null, 2));
      return 0;
    }
    if (str(values, "for") !== undefined) throw new CliError("--for goes with --print-config");
    if (values.stdio === true) return await serveStdio(ctx, folder, values.verbose === true);
    const portText = str(values, "port");
    const port = portText === undefined ? 0 : Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new CliError(`Invalid --port "${portText}": expected 0–65535`);
    }
    const { serveSkills } = await import("../server/mod.ts") as ServerModule; // lazy: only `serve` loads the server
    const token = str(values, "token");
    const server = await serveSkills({
      folder: folder === undefined ? undefined : resolve(folder),
      host: str(values, "host"),
      port,
      token,
      log: values.verbose === true ? ctx.err : undefined,
    }).catch((error) => {
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
    if (ctx.json) printJson(ctx, { url: server.url, folder: folder ?? null, ...snippet });
    else {
      ctx.out(
        `Serving ${
          folder ? `skills from ${resolve(folder)}` : "the built-in skills"
        } at ${server.url}`,
      );
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
    return 0;
  },
};
