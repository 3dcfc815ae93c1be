/**
 * `skillmux catalog|select|approve`: the catalog of skills and tools, picking
 * what a request needs, and approving remote tools and skills.
 *
 * @module
 */

// Long because: four commands (`catalog`, `select`, `approve`, `evaluate`) over one catalog scope
// (withCatalog) and its shared flags.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createCatalog } from "../catalog/build/catalog.ts";
import { cachedPreviews } from "./_previews.ts";
import { evaluateSelection, parseLabelledRequests } from "../catalog/select/evaluate.ts";
import { createAnthropicModel, createOpenAiModel } from "../catalog/llm/llm.ts";
import { selectForRequest } from "../catalog/select/select.ts";
import type { SelectModel } from "../catalog/model/select_types.ts";
import type { Catalog, FeedbackRequest } from "../catalog/model/types.ts";
import { assemblePrompt } from "../prompt/assemble.ts";
import { createDefaultSources } from "../resolve/default_sources.ts";
import { createResolver } from "../resolve/resolver.ts";
import type { SkillSource } from "../resolve/types.ts";
import { createFsStorage } from "../storage/fs.ts";
import { CliError, str, UsageError, type Values } from "./_args.ts";
import { catalogIds, didYouMean } from "./_suggest.ts";
import type { Command } from "./_command.ts";
import { cliInvocation } from "./_invocation.ts";
import { type Context, ensureConfigDir, printJson } from "./_context.ts";
import { evaluationLines } from "./_eval_report.ts";
import { commandServers } from "./_servers.ts";
import { FEEDBACK_OPTION, FEEDBACK_SPEC, feedbackOption } from "./_feedback.ts";

/** A positive integer option, or `undefined`. */
function positive(values: Values, name: string): number | undefined {
  const text = str(values, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive integer`);
  return n;
}

/** What a command's catalog covers. */
export interface CatalogScope {
  /** `approve` itself: no pointer to the command being run. */
  approving?: boolean;
  /** Only these registered servers' tools (default all); none are connected but these. */
  only?: readonly string[];
  /** Include skills (default `true`); `tools` and `call <server>__<tool>` need none. */
  skills?: boolean;
  /** `--feedback`'s labelled requests (`createCatalog({ feedback })`); none by default. */
  feedback?: readonly FeedbackRequest[];
}

/**
 * The catalog over the default sources, the registry and `approvals.json` in the config folder.
 * Registered servers are connected only when their cached discovery is missing or old, stdio
 * servers a few at a time (see `_servers.ts`); servers without skills are not asked for them.
 */
export async function withCatalog<T>(
  ctx: Context,
  fn: (catalog: Catalog) => Promise<T>,
  { approving = false, only, skills = true, feedback }: CatalogScope = {},
): Promise<T> {
  const config = await ensureConfigDir(ctx);
  const servers = await commandServers(ctx, await ctx.registry(), only);
  const sources = skills
    ? await servers.skillSources(await createDefaultSources(ctx.sourceOptions))
    : [];
  const catalog = await createCatalog({
    ...(skills ? { resolver: createResolver({ sources }) } : {}),
    registry: servers.registry,
    previews: cachedPreviews(config),
    approvals: { storage: createFsStorage({ root: config, private: true }) },
    // Each command is a new process: the keyword index is kept in the config folder's cache/,
    // so a command whose skills and servers did not change loads it instead of indexing.
    indexStorage: createFsStorage({ root: join(config, "cache"), private: true }),
    follow: false,
    ...(feedback ? { feedback } : {}),
  });
  try {
    for (const d of catalog.diagnostics) {
      if (d.problem !== "pending" && d.problem !== "changed") ctx.err(`warning: ${d.message}`);
    }
    // `approve` itself lists what waits: no pointer to the command being run.
    if (!ctx.json && !approving && catalog.held.length > 0) {
      ctx.err(
        `${catalog.held.length} entr${
          catalog.held.length === 1 ? "y waits" : "ies wait"
        } for approval (${cliInvocation()} approve)`,
      );
    }
    return await fn(catalog);
  } finally {
    catalog.dispose();
    const all = sources.flat() as Array<SkillSource & { dispose?: () => Promise<void> }>;
    await Promise.all(all.map((s) => s.dispose?.().catch(() => {})));
  }
}

const catalogCommand: Command = {
  words: ["catalog"],
  args: "",
  summary: "Show the compact catalog of skills, MCP tools and functions, with its token count",
  options: [
    "--budget <n>       most tokens (o200k); the least relevant entries are left out",
    '--request "<text>" rank entries against a request when the budget leaves some out',
    "--feedback <file>  rank with your labelled requests (an eval file) as examples",
  ],
  spec: { budget: { type: "string" }, request: { type: "string" }, ...FEEDBACK_SPEC },
  async run(ctx, _args, values) {
    const budget = positive(values, "budget");
    const feedback = await feedbackOption(values);
    return await withCatalog(ctx, async (catalog) => {
      const rendered = await catalog.render({ budget, request: str(values, "request") });
      if (ctx.json) {
        return printJson(ctx, {
          ...rendered,
          entries: catalog.entries,
          held: catalog.held,
          diagnostics: catalog.diagnostics,
        }),
          0;
      }
      ctx.io.stdout(rendered.text);
      ctx.out(ctx.paint.dim(
        `${rendered.tokens} tokens (o200k), ${rendered.ids.length} entries shown${
          rendered.omitted > 0 ? `, ${rendered.omitted} left out for the budget` : ""
        }`,
      ));
      return 0;
    }, { feedback });
  },
};

function model(ctx: Context, values: Values): SelectModel | undefined {
  const kind = str(values, "llm");
  if (kind === undefined) return undefined;
  const modelName = str(values, "model");
  if (!modelName) throw new UsageError("--llm needs --model <name>");
  const baseUrl = str(values, "base-url");
  if (kind === "openai") {
    return createOpenAiModel({ model: modelName, baseUrl, apiKey: ctx.env.OPENAI_API_KEY });
  }
  if (kind === "anthropic") {
    return createAnthropicModel({ model: modelName, baseUrl, apiKey: ctx.env.ANTHROPIC_API_KEY });
  }
  throw new UsageError(`--llm must be "openai" or "anthropic", not "${kind}"`);
}

const select: Command = {
  words: ["select"],
  args: '"<request>"',
  min: 1,
  summary: "Pick the skills and tools a request needs, and assemble the prompt",
  options: [
    "--llm openai|anthropic  select with a model (else keyword ranking)",
    "--model <name>          the model, e.g. gpt-4.1-mini or claude-sonnet-4-5",
    "--base-url <url>        an OpenAI-compatible server (llama.cpp, Ollama, vLLM) or proxy",
    "--budget <n>            most tokens of the catalog in the selection prompt (default 4000)",
    '--context "<text>"      extra context for the model',
    "--skills inline|tool    inline skill bodies (default) or an activate_skill tool",
    "--no-connect            do not connect the selected tools' servers",
    FEEDBACK_OPTION,
  ],
  details: [
    "Keys come from OPENAI_API_KEY and ANTHROPIC_API_KEY. --json prints { selection, prompt };",
    "selection.skills and selection.tools are in rank order, best first.",
  ],
  spec: {
    llm: { type: "string" },
    model: { type: "string" },
    "base-url": { type: "string" },
    budget: { type: "string" },
    context: { type: "string" },
    skills: { type: "string" },
    "no-connect": { type: "boolean" },
    ...FEEDBACK_SPEC,
  },
  async run(ctx, [request], values) {
    const llm = model(ctx, values);
    const feedback = await feedbackOption(values);
    const skills = str(values, "skills") ?? "inline";
    if (skills !== "inline" && skills !== "tool") {
      throw new UsageError('--skills must be "inline" or "tool"');
    }
    const budget = positive(values, "budget");
    return await withCatalog(ctx, async (catalog) => {
      const selection = await selectForRequest(catalog, request, {
        llm,
        budget,
        context: str(values, "context"),
      });
      const prompt = await assemblePrompt({
        request,
        selection,
        catalog,
        skills,
        connect: values["no-connect"] !== true,
      });
      try {
        if (ctx.json) {
          const { session: _s, executeToolCall: _e, ...shown } = prompt;
          return printJson(ctx, { selection, prompt: shown }), 0;
        }
        const why = selection.fallback ? ` (${selection.fallback.message})` : "";
        ctx.out(`${ctx.paint.bold("Selected")} via ${selection.via}${why}`);
        ctx.out(`  complexity: ${selection.complexity}`);
        ctx.out(`  skills: ${selection.skills.join(", ") || "(none)"}`);
        ctx.out(`  tools:  ${selection.tools.join(", ") || "(none)"}`);
        if (selection.reasoning) ctx.out(`  reasoning: ${selection.reasoning}`);
        if (selection.reason) ctx.out(`  ${selection.reason}`);
        for (const d of [...selection.diagnostics, ...prompt.diagnostics.map((d) => d.message)]) {
          ctx.err(`warning: ${d}`);
        }
        ctx.out("");
        ctx.out(ctx.paint.bold(`System prompt (${prompt.tokens} tokens):`));
        ctx.io.stdout(prompt.system);
        if (prompt.tools.openai.length > 0) {
          ctx.out("");
          ctx.out(ctx.paint.bold("Tools:"));
          for (const t of prompt.tools.openai) {
            ctx.out(`  ${t.function.name}: ${t.function.description}`);
          }
        }
        return 0;
      } finally {
        await prompt.session.close();
      }
    }, { feedback });
  },
};

const approve: Command = {
  words: ["approve"],
  args: "[id…]",
  max: Infinity,
  summary: "List remote tools and skills waiting for approval (with diffs), or approve them",
  options: ["--all    approve every entry waiting"],
  spec: { all: { type: "boolean" } },
  async run(ctx, ids, values) {
    return await withCatalog(ctx, async (catalog) => {
      const held = catalog.held;
      const chosen = values.all === true ? held.map((h) => h.entry.id) : ids;
      if (chosen.length === 0) {
        if (ctx.json) return printJson(ctx, { held }), 0;
        if (held.length === 0) ctx.out("Nothing waits for approval.");
        for (const { entry, diff, standIn } of held) {
          ctx.out(
            `${ctx.paint.bold(entry.id)} (${entry.kind}, ${entry.source}) ${
              entry.approval === "changed" ? "changed since approved" : "new"
            }${standIn ? `; the ${standIn} version answers meanwhile` : ""}`,
          );
          ctx.out(`  ${entry.description}`);
          if (diff) { for (const line of diff.split("\n")) ctx.out(`    ${line}`); }
        }
        if (held.length > 0) ctx.out(`Approve with: ${cliInvocation()} approve <id…> (or --all)`);
        return 0;
      }
      const unknown = chosen.filter((id) =>
        !held.some((h) => h.entry.id === id) && !catalog.get(id)
      );
      if (unknown.length > 0) {
        const hint = didYouMean(unknown[0], catalogIds(catalog));
        throw new CliError(`No catalog entry "${unknown[0]}"${hint}`);
      }
      await catalog.approve(chosen);
      if (ctx.json) return printJson(ctx, { approved: chosen, held: catalog.held }), 0;
      ctx.out(`${ctx.paint.ok("✓")} Approved ${chosen.join(", ")}`);
      return 0;
    }, { approving: true });
  },
};

const evaluate: Command = {
  words: ["eval"],
  args: "<file.jsonl>",
  min: 1,
  max: 1,
  summary: 'Measure selection on a labelled set: top-1, top-3, MRR, "none" precision, misses',
  options: [
    "--llm openai|anthropic  select with a model, as select does (else keyword ranking)",
    "--model <name>          the model",
    "--base-url <url>        an OpenAI-compatible server or proxy",
    "--budget <n>            most tokens of the catalog in the selection prompt (default 4000)",
    FEEDBACK_OPTION,
  ],
  details: [
    'One JSON object a line: {"request": "...", "expected": ["id", ...] or "none"}; any',
    "expected id is a right first pick. Runs the selection `select` runs, over the same",
    "catalog. Exit code 0 even with misses; --json prints the whole evaluation.",
    "--feedback with another labelled file measures what your labels buy; with the same",
    "file it measures nothing (the requests are then in the index).",
  ],
  spec: {
    llm: { type: "string" },
    model: { type: "string" },
    "base-url": { type: "string" },
    budget: { type: "string" },
    ...FEEDBACK_SPEC,
  },
  async run(ctx, [file], values) {
    const llm = model(ctx, values);
    const budget = positive(values, "budget");
    const feedback = await feedbackOption(values);
    const text = await readFile(file, "utf8").catch((error: Error) => {
      throw new CliError(`Cannot read ${file}: ${error.message}`, { cause: error });
    });
    let labelled;
    try {
      labelled = parseLabelledRequests(text);
    } catch (error) {
      throw new CliError(`${file}: ${(error as Error).message}`, { cause: error });
    }
    return await withCatalog(ctx, async (catalog) => {
      const unknown = labelled.flatMap((l) => l.expected === "none" ? [] : l.expected)
        .filter((id) => !catalog.get(id));
      for (const id of new Set(unknown)) {
        ctx.err(`warning: ${file}: "${id}" is not a usable entry of this catalog`);
      }
      const report = await evaluateSelection(catalog, labelled, { llm, budget });
      if (ctx.json) return printJson(ctx, report), 0;
      for (const line of evaluationLines(report, llm ? "llm" : "keyword")) ctx.out(line);
      return 0;
    }, { feedback });
  },
};

/** The catalog commands. */
export const catalogCommands: readonly Command[] = [catalogCommand, select, approve, evaluate];
