// Private: the CLI as a full MCP client. It declares what the playground declares — elicitation
// (form and URL), sampling and roots — so servers show it the same tools, and answers them:
// elicitation with a form on the terminal (declined, with a note, when stdin is not a terminal);
// sampling with the configured model, an OpenAI-compatible or Anthropic endpoint (`--llm`/`--model`
// or SKILLMUX_SAMPLING=openai:<model>), after the person agrees on a terminal, or refused with a
// message saying how to configure one; roots with the working directory (SKILLMUX_ROOTS, or
// `call --root`, to name others).

import { basename, delimiter, resolve } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import type {
  ClientCapabilities,
  ClientHandlers,
  CreateMessageParams,
  CreateMessageResult,
  Root,
} from "../mcp/client/client_handlers.ts";
import { createAnthropicModel, createOpenAiModel } from "../catalog/llm/llm.ts";
import type { ChatMessage } from "../catalog/model/select_types.ts";
import { stripHidden } from "../_text_clean.ts";
import { type Asker, elicitOnTerminal } from "./_form.ts";
import type { ProgressLine } from "./_progress.ts";

/** What the handlers need of a command's context (`Context` has it all). */
export interface HandlerHost {
  io: { ask?: (question: string, options?: { signal?: AbortSignal }) => Promise<string> };
  env: Record<string, string | undefined>;
  err(line: string): void;
  paint: { bold(text: string): string; dim(text: string): string };
}

/** What the CLI declares to every server. */
export const CLI_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: { listChanged: false },
};

/** The model that answers sampling requests. */
export interface SamplingModel {
  provider: "openai" | "anthropic";
  model: string;
  baseUrl?: string;
}

/** What a command adds to the handlers: its roots, its model, its progress line. */
export interface HandlerSettings {
  roots?: readonly string[];
  sampling?: SamplingModel;
  progress?: ProgressLine;
}

/** The sampling model of `SKILLMUX_SAMPLING=<openai|anthropic>:<model>`, if set. */
export function samplingFromEnv(
  env: Record<string, string | undefined>,
): SamplingModel | undefined {
  const text = env.SKILLMUX_SAMPLING?.trim();
  if (!text) return undefined;
  const at = text.indexOf(":");
  const provider = text.slice(0, at);
  const model = text.slice(at + 1);
  if (at < 0 || (provider !== "openai" && provider !== "anthropic") || model === "") {
    throw new Error(
      `SKILLMUX_SAMPLING must be "openai:<model>" or "anthropic:<model>", not "${text}"`,
    );
  }
  const baseUrl = env.SKILLMUX_SAMPLING_BASE_URL || undefined;
  return { provider, model, ...(baseUrl ? { baseUrl } : {}) };
}

/** The roots: the given folders, else SKILLMUX_ROOTS (path-list), else the working directory. */
function rootsOf(ctx: HandlerHost, given: readonly string[] | undefined): Root[] {
  const fromEnv = ctx.env.SKILLMUX_ROOTS?.split(delimiter).filter(Boolean);
  const folders = given?.length ? given : fromEnv?.length ? fromEnv : [process.cwd()];
  return folders.map((folder) => {
    const path = resolve(folder);
    return { uri: pathToFileURL(path).href, name: basename(path) || path };
  });
}

const text = (content: unknown): string => {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => {
    const block = b as { type?: unknown; text?: unknown };
    return block?.type === "text" ? String(block.text ?? "") : `[${String(block?.type)} omitted]`;
  }).join("\n");
};

async function sample(
  ctx: HandlerHost,
  io: Asker | undefined,
  chosen: SamplingModel | undefined,
  params: CreateMessageParams,
  server: string,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  if (chosen === undefined) {
    ctx.err(`"${server}" asked for a model (sampling), but none is configured: refused`);
    throw Object.assign(
      new Error(
        "skillmux has no model configured for sampling: set SKILLMUX_SAMPLING=openai:<model> or " +
          "anthropic:<model>, or pass --llm openai|anthropic --model <name> to call",
      ),
      { code: -1 },
    );
  }
  const messages: ChatMessage[] = [];
  if (typeof params.systemPrompt === "string") {
    messages.push({ role: "system", content: params.systemPrompt });
  }
  for (const m of params.messages ?? []) messages.push({ role: m.role, content: text(m.content) });
  const last = stripHidden(messages.at(-1)?.content ?? "").replace(/\s+/g, " ").slice(0, 300);
  if (io !== undefined) {
    io.say(`${io.bold(`"${server}" asks the model ${chosen.model} (sampling):`)} ${last}`);
    const go = await io.ask(`  Send it to ${chosen.model}? [Y/n] `, { signal });
    if (/^n/i.test(go.trim())) {
      throw Object.assign(new Error("the user refused the sampling request"), { code: -1 });
    }
  } else ctx.err(ctx.paint.dim(`"${server}" asks the model ${chosen.model} (sampling)`));
  const options = {
    model: chosen.model,
    baseUrl: chosen.baseUrl,
    maxTokens: params.maxTokens,
    ...(typeof params.temperature === "number" ? { temperature: params.temperature } : {}),
  };
  const llm = chosen.provider === "openai"
    ? createOpenAiModel({ ...options, apiKey: ctx.env.OPENAI_API_KEY, jsonMode: false })
    : createAnthropicModel({ ...options, apiKey: ctx.env.ANTHROPIC_API_KEY });
  const answer = await llm(messages, { signal });
  return {
    role: "assistant",
    content: { type: "text", text: answer },
    model: chosen.model,
    stopReason: "endTurn",
  };
}

/** The CLI's handlers for server requests (see the top of this file). */
export function cliHandlers(ctx: HandlerHost, settings: HandlerSettings = {}): ClientHandlers {
  const ask = ctx.io.ask;
  const io: Asker | undefined = ask && {
    ask: (question, options) => ask(question, options),
    say: (line) => ctx.err(line),
    bold: ctx.paint.bold,
    dim: ctx.paint.dim,
  };
  const hold = <T>(fn: () => Promise<T>) => settings.progress ? settings.progress.hold(fn) : fn();
  return {
    roots: () => rootsOf(ctx, settings.roots),
    elicitation: (params, { server, signal }) => {
      if (io === undefined) {
        const what = stripHidden(String(params.message ?? "")).replace(/\s+/g, " ").slice(0, 200);
        ctx.err(
          `"${server}" asks: ${what} — declined: no terminal to answer on (stdin is not a TTY)`,
        );
        return { action: "decline" };
      }
      return hold(() => elicitOnTerminal(params, io, server, signal));
    },
    sampling: (params, { server, signal }) =>
      hold(() =>
        sample(ctx, io, settings.sampling ?? samplingFromEnv(ctx.env), params, server, signal)
      ),
  };
}
