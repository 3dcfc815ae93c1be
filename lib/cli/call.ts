/**
 * `skillmux call <id> ['<json arguments>']`: run one approved catalog entry — an MCP tool, or a
 * skill's activation — by its catalog id, with progress on a terminal and Ctrl-C to cancel.
 *
 * @module
 */

// Long because: two commands (`call`, `tools`) and the terminal side of a tool call: arguments,
// progress lines, Ctrl-C, sampling and roots.

import process from "node:process";
import type { Catalog, CatalogEntry } from "../catalog/model/types.ts";
import { stripHidden } from "../_text_clean.ts";
import { connect } from "../mcp/client/client.ts";
import type { CallToolResult, ContentBlock, Progress } from "../mcp/protocol/types.ts";
import { schemaProblems } from "../prompt/check_arguments.ts";
import { skillText } from "../prompt/fence.ts";
import { CliError, str, UsageError, type Values } from "./_args.ts";
import { catalogIds, didYouMean } from "./_suggest.ts";
import type { Command } from "./_command.ts";
import { type Context, printJson } from "./_context.ts";
import { withCatalog } from "./catalog.ts";
import { cliInvocation } from "./_invocation.ts";
import { CLI_CAPABILITIES, cliHandlers, samplingFromEnv, type SamplingModel } from "./_handlers.ts";
import { ProgressLine, type ProgressMode } from "./_progress.ts";

/** The arguments: a JSON object, or `{}` when none are given. */
function parseArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError('the arguments must be a JSON object, e.g. \'{"message":"hi"}\'');
  }
  return value as Record<string, unknown>;
}

/** The usable entry `id`, or a clear refusal (waiting for approval, unknown). */
function entryOf(catalog: Catalog, id: string): CatalogEntry {
  const entry = catalog.get(id);
  if (entry) return entry;
  if (catalog.held.some((h) => h.entry.id === id)) {
    const cli = cliInvocation();
    throw new CliError(
      `"${id}" waits for approval; review it with "${cli} approve", then run: ${cli} approve ${id}`,
    );
  }
  throw new CliError(
    `No catalog entry "${id}" (list them with: ${cliInvocation()} tools)${
      didYouMean(id, catalogIds(catalog))
    }`,
  );
}

/** One content block as terminal text (remote text cleaned of hidden and control characters). */
function blockText(block: ContentBlock): string {
  const b = block as Record<string, unknown>;
  if (b.type === "text") return stripHidden(String(b.text ?? ""));
  const resource = b.resource as Record<string, unknown> | undefined;
  if (b.type === "resource" && typeof resource?.text === "string") {
    return stripHidden(resource.text);
  }
  const what = [b.type, b.mimeType, b.uri ?? resource?.uri].filter((x) => typeof x === "string");
  return `[${stripHidden(what.join(" "))}]`;
}

/** A progress line: `3/4 (75%) message`. */
function progressLine(id: string, p: Progress): string {
  const total = p.total ? `/${p.total} (${Math.round((100 * p.progress) / p.total)}%)` : "";
  const note = p.message ? ` ${stripHidden(p.message).replace(/\s+/g, " ").slice(0, 100)}` : "";
  return `${id}: ${p.progress}${total}${note}`;
}

/** Aborts on Ctrl-C (or `ctx.io.signal`); `dispose` removes the handler. */
function interrupt(ctx: Context): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort(new DOMException("cancelled (Ctrl-C)", "AbortError"));
  const outer = ctx.io.signal;
  if (outer?.aborted) abort();
  outer?.addEventListener("abort", abort, { once: true });
  process.on("SIGINT", abort);
  return {
    signal: controller.signal,
    dispose() {
      // After a Ctrl-C the handler stays: on Deno, removing the last one lets the signal end the
      // process as killed (no exit code) before it has closed.
      if (!controller.signal.aborted) process.off("SIGINT", abort);
      outer?.removeEventListener("abort", abort);
    },
  };
}

async function callTool(
  ctx: Context,
  catalog: Catalog,
  entry: CatalogEntry,
  args: Record<string, unknown>,
  values: Values,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const target = catalog.toolTarget(entry.id);
  if (!target?.server) throw new CliError(`"${entry.id}" has no server to run on`);
  const timeout = str(values, "timeout");
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new UsageError("--timeout must be a positive number of milliseconds");
  }
  // A terminal gets one line redrawn in place; elsewhere plain lines, one a second, or every
  // update with `--progress`.
  const mode: ProgressMode = values.progress === true
    ? "lines"
    : ctx.io.stderrIsTerminal === true && !ctx.json
    ? "line"
    : "some";
  const progress = new ProgressLine(ctx, mode);
  const client = await connect(target.server, {
    stdio: ctx.stdio,
    auth: { store: await ctx.oauthStore() },
    capabilities: CLI_CAPABILITIES,
    handlers: cliHandlers(ctx, {
      roots: roots(values),
      sampling: samplingOf(values) ?? samplingFromEnv(ctx.env),
      progress,
    }),
    signal,
  });
  try {
    const support = (target.tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
    return await client.callTool(entry.name, args, {
      signal,
      timeoutMs,
      task: values.task === true || support === "required",
      onTaskStatus: (task) => {
        const note = task.statusMessage
          ? ` ${stripHidden(task.statusMessage).replace(/\s+/g, " ").slice(0, 100)}`
          : "";
        progress.update(`${entry.id}: task ${task.status}${note}`);
      },
      onProgress: (p) => progress.update(progressLine(entry.id, p)),
    });
  } finally {
    progress.clear();
    await client.close().catch(() => {});
  }
}

/** `--root <dir>` folders, if any (else SKILLMUX_ROOTS, else the working directory). */
function roots(values: Values): string[] | undefined {
  const given = values.root as string[] | undefined;
  return given?.length ? given : undefined;
}

/** The model of `--llm openai|anthropic --model <name> [--base-url <url>]`, if given. */
function samplingOf(values: Values): SamplingModel | undefined {
  const provider = str(values, "llm");
  const model = str(values, "model");
  if (provider === undefined && model === undefined) return undefined;
  if (provider !== "openai" && provider !== "anthropic") {
    throw new UsageError(
      `--llm must be "openai" or "anthropic"${provider ? `, not "${provider}"` : ""}`,
    );
  }
  if (!model) throw new UsageError("--llm needs --model <name>");
  const baseUrl = str(values, "base-url");
  return { provider, model, ...(baseUrl ? { baseUrl } : {}) };
}

/** `call`. */
export const call: Command = {
  words: ["call"],
  args: "<id> ['<json arguments>']",
  min: 1,
  max: 2,
  summary: "Run an approved MCP tool (or activate a skill) by its catalog id",
  options: [
    "--timeout <ms>   most silence from the tool (progress resets it; default 60000)",
    "--json           print the raw result",
    "--progress       a progress line per update on stderr, also when it is not a terminal",
    "--task           run it as an MCP task (tools that require one always are)",
    "--root <dir>     a root the server may work in (repeatable; default: the working",
    "                 directory, or SKILLMUX_ROOTS)",
    "--llm openai|anthropic --model <name> [--base-url <url>]",
    "                 the model that answers the server's sampling requests (default:",
    "                 SKILLMUX_SAMPLING=openai:<model>; keys from OPENAI_API_KEY, ANTHROPIC_API_KEY)",
  ],
  details: [
    "The arguments are checked against the tool's input schema before anything is sent.",
    "Entries waiting for approval are refused (approve <id> first). Ctrl-C cancels the call",
    "and tells the server. Exit codes: 0 ok, 1 the tool failed or reported an error, 2 usage,",
    "130 cancelled.",
    "Servers may ask questions (elicitation): a form on the terminal, declined when stdin is",
    "not one. Sampling requests are shown and sent to the model once you agree; without a",
    "model they are refused.",
  ],
  spec: {
    timeout: { type: "string" },
    progress: { type: "boolean" },
    task: { type: "boolean" },
    root: { type: "string", multiple: true },
    llm: { type: "string" },
    model: { type: "string" },
    "base-url": { type: "string" },
  },
  async run(ctx, [id, text], values) {
    const args = parseArguments(text);
    // Ctrl-C cancels from the start: while the catalog loads, the call never leaves.
    const stop = interrupt(ctx);
    const attempt = async (catalog: Catalog): Promise<number> => {
      try {
        const entry = entryOf(catalog, id);
        if (entry.kind === "function") throw new CliError(`"${id}" is a host function`);
        if (entry.kind === "skill") {
          const { skill } = await catalog.loadSkill(id, { signal: stop.signal });
          if (ctx.json) return printJson(ctx, { id, skill: skillText(skill) }), 0;
          ctx.io.stdout(`${stripHidden(skillText(skill)).trimEnd()}\n`);
          return 0;
        }
        const problems = schemaProblems(entry, args, 10_000);
        if (problems.length > 0) {
          throw new UsageError(`invalid arguments for "${id}": ${problems.join("; ")}`);
        }
        const result = await callTool(ctx, catalog, entry, args, values, stop.signal);
        if (ctx.json) printJson(ctx, result);
        else for (const block of result.content ?? []) ctx.out(blockText(block));
        if (result.isError === true) ctx.err(`error: "${id}" reported an error`);
        return result.isError === true ? 1 : 0;
      } catch (error) {
        if (!stop.signal.aborted) throw error;
        ctx.err(`"${id}" cancelled`);
        return 130;
      }
    };
    try {
      // A tool id names its server: only that server is looked at, and connected for the call.
      const server = await serverOf(ctx, id);
      if (server !== undefined) {
        const code = await withCatalog(
          ctx,
          (catalog) =>
            catalog.get(id) || catalog.held.some((h) => h.entry.id === id)
              ? attempt(catalog)
              : Promise.resolve(undefined),
          { only: [server], skills: false },
        );
        if (code !== undefined) return code;
      }
      // A skill, or an id no server's tools have: the whole catalog answers (or suggests).
      return await withCatalog(ctx, attempt);
    } finally {
      stop.dispose();
    }
  },
};

/** The one registered server whose tools' ids start like `id` (`<server>__<tool>`), if any. */
async function serverOf(ctx: Context, id: string): Promise<string | undefined> {
  const names = (await (await ctx.registry()).list()).map((s) => s.name);
  const matches = names.filter((name) =>
    id.startsWith(`${name.replace(/[^a-zA-Z0-9_-]/g, "_")}__`)
  );
  return matches.length === 1 ? matches[0] : undefined;
}

/** `a*: string, b: number` — the properties of an input schema, required ones starred. */
function argumentSummary(schema: Record<string, unknown> | undefined): string {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema?.required) ? schema.required as string[] : []);
  const parts = Object.entries(properties).map(([name, property]) => {
    const type = Array.isArray(property?.type)
      ? property.type.join("|")
      : typeof property?.type === "string"
      ? property.type
      : "any";
    return `${name}${required.has(name) ? "*" : ""}: ${type}`;
  });
  return stripHidden(parts.join(", ")) || "(no arguments)";
}

const HINTS: ReadonlyArray<[string, string]> = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open-world"],
];

/** `tools`. */
export const tools: Command = {
  words: ["tools"],
  args: "[server]",
  max: 1,
  summary: "List MCP tools with their ids, annotations and arguments (* required)",
  async run(ctx, [server], _values) {
    const only = server === undefined ? undefined : [server];
    return await withCatalog(ctx, (catalog) => {
      const held = new Set(catalog.held.map((h) => h.entry.id));
      const all = [...catalog.entries, ...catalog.held.map((h) => h.entry)]
        .filter((e) => e.kind === "tool" && (server === undefined || e.server === server));
      if (server !== undefined && all.length === 0) {
        throw new CliError(`No tools from a server named "${server}"`);
      }
      const rows = all.map((entry) => {
        const annotations = catalog.toolTarget(entry.id)?.tool.annotations ?? {};
        const execution = catalog.toolTarget(entry.id)?.tool.execution as
          | { taskSupport?: string }
          | undefined;
        return {
          id: entry.id,
          server: entry.server,
          approved: !held.has(entry.id),
          annotations: HINTS.filter(([key]) => annotations[key] === true).map(([, label]) => label),
          ...(execution?.taskSupport && execution.taskSupport !== "forbidden"
            ? { taskSupport: execution.taskSupport }
            : {}),
          arguments: argumentSummary(entry.inputSchema),
          description: entry.description,
        };
      });
      if (ctx.json) return Promise.resolve((printJson(ctx, { tools: rows }), 0));
      for (const row of rows) {
        const tags = [...row.annotations, ...(row.taskSupport ? [`task ${row.taskSupport}`] : [])];
        const wait = row.approved ? "" : ctx.paint.dim(" (waits for approval)");
        ctx.out(`${ctx.paint.bold(row.id)}${tags.length ? ` [${tags.join(", ")}]` : ""}${wait}`);
        ctx.out(`  ${row.arguments}`);
        if (row.description) ctx.out(`  ${stripHidden(row.description)}`);
      }
      if (rows.length === 0) {
        ctx.out(`No MCP tools (add a server with: ${cliInvocation()} mcp add)`);
      }
      return Promise.resolve(0);
    }, { only, skills: false });
  },
};
