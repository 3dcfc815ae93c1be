/**
 * skillmux for LangChain.js (`@langchain/core` 1.x): the selection as
 * `StructuredTool`s and the system text as a `SystemMessage`, with discovery
 * through the tool list of each step. `@langchain/core` is an optional peer
 * dependency: install it next to `@skillmux/core`.
 *
 * @example
 * ```ts
 * import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
 * import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
 * import { createBuiltinSource, createCatalog, createResolver } from "@skillmux/core";
 * import { langchainTools } from "@skillmux/core/langchain";
 * declare const model: BaseChatModel; // e.g. new ChatAnthropic({ model: "claude-sonnet-4-5" })
 * const catalog = await createCatalog({ resolver: createResolver({ sources: [createBuiltinSource()] }) });
 * const request = "sort and index my BAM file";
 * const skillmux = await langchainTools({ catalog, request, discovery: true });
 * const messages: BaseMessage[] = [skillmux.system, new HumanMessage(request)];
 * for (let step = 0; step < 8; step++) {
 *   const reply = await model.bindTools!(skillmux.step()).invoke(messages);
 *   messages.push(reply);
 *   if (!reply.tool_calls?.length) break;
 *   for (const call of reply.tool_calls) messages.push(await skillmux.invoke(call));
 * }
 * await skillmux.close();
 * ```
 *
 * @module
 */

import type { ToolCallResult } from "../prompt/types.ts";
import { contentText } from "../prompt/results.ts";
import type { FrameworkToolsOptions, HeldFrameworkTool } from "./types.ts";
import { importPeer } from "../_peer.ts";
import { buildToolkit } from "./_toolkit.ts";

export type { FrameworkToolsOptions, HeldFrameworkTool } from "./types.ts";

/** LangChain's core, an optional peer dependency; keep in step with package.json. */
const CORE = { name: "@langchain/core", range: "^1.0.0", entry: "@skillmux/core/langchain" };

/**
 * LangChain's `StructuredTool` (from `@langchain/core/tools`).
 *
 * @ignore
 */
export type StructuredTool = import("@langchain/core/tools").StructuredTool;
/**
 * LangChain's `SystemMessage` (from `@langchain/core/messages`).
 *
 * @ignore
 */
export type SystemMessage = import("@langchain/core/messages").SystemMessage;
/**
 * LangChain's `ToolMessage` (from `@langchain/core/messages`).
 *
 * @ignore
 */
export type ToolMessage = import("@langchain/core/messages").ToolMessage;

/** What {@linkcode langchainTools} returns. */
export interface LangChainSkillmux {
  /** Every tool that may be called (in discovery mode every usable tool): for a `ToolNode`. */
  tools: StructuredTool[];
  /** Start a step: the tools to bind for it (`model.bindTools(skillmux.step())`), with what `find_tools` found. */
  step(): StructuredTool[];
  /** Run a tool call of the model (an `AIMessage`'s `tool_calls[i]`), answered as a `ToolMessage`. */
  invoke(
    call: { id?: string; name: string; args: Record<string, unknown> },
    config?: { signal?: AbortSignal },
  ): Promise<ToolMessage>;
  /** The system text (selected skills, tool provenance, fencing rules) as the first message. */
  system: SystemMessage;
  /** The same text as a string. */
  systemText: string;
  /** Problems met while assembling (unavailable tools, flagged text, …), and `held` tools. */
  diagnostics: ReadonlyArray<{ id?: string; problem: string; message: string }>;
  /**
   * Tools and functions held for approval (by default every remote tool until approved): never
   * offered, and said — in `diagnostics` (problem `held`, with the approve command), in the
   * system text when some fit the request, and in `find_tools` answers. Those that fit first.
   */
  held: readonly HeldFrameworkTool[];
  /** Close the MCP connections opened (not a session you passed). */
  close(): Promise<void>;
}

/** A result as LangChain content: text, and images as standard image blocks. */
function content(result: ToolCallResult): string | Array<Record<string, unknown>> {
  const images = result.content.filter((b) =>
    b.type === "image" && /^image\/(png|jpeg|gif|webp)$/.test(b.mimeType)
  );
  const text = contentText(result.content.filter((b) => !images.includes(b)));
  if (images.length === 0) return result.isError ? `Error: ${text}` : text;
  return [
    ...(text ? [{ type: "text", text }] : []),
    ...images.map((b) =>
      b.type === "image" ? { type: "image", mimeType: b.mimeType, data: b.data } : {}
    ),
  ];
}

/**
 * The selected skills and tools for `request` as LangChain `StructuredTool`s,
 * and the system text as a `SystemMessage`. Every call goes through
 * skillmux's `executeToolCall`: arguments checked against the schema by
 * skillmux (patterns on a linear-time engine, bounded; LangChain's own check,
 * which would run a server's patterns natively, is skipped), approvals (a held
 * tool never runs), the timeout, and the run's `signal` cancelling the call.
 * Invoked with a tool call, a tool answers a `ToolMessage` (`status: "error"`
 * on failure, the MCP content as `artifact`). With `discovery: true`,
 * `find_tools` is offered and `step()` gives each step's tools, with what it
 * found from the next step on.
 *
 * @example With a selection made beforehand
 * ```ts
 * import { createCatalog, selectForRequest } from "@skillmux/core";
 * import { langchainTools } from "@skillmux/core/langchain";
 * const catalog = await createCatalog({
 *   functions: [{ name: "add", description: "Add two numbers", handler: ({ a, b }) => Number(a) + Number(b) }],
 * });
 * const request = "add 2 and 3";
 * const selection = await selectForRequest(catalog, request);
 * const { tools, close } = await langchainTools({ catalog, request, selection });
 * const answer = await tools[0].invoke({ id: "call_1", name: "add", args: { a: 2, b: 3 }, type: "tool_call" });
 * console.log(answer.content); // "5"
 * await close();
 * ```
 */
export async function langchainTools(options: FrameworkToolsOptions): Promise<LangChainSkillmux> {
  const [tools, messages] = await importPeer(
    () => Promise.all([import("@langchain/core/tools"), import("@langchain/core/messages")]),
    CORE,
  );
  const kit = await buildToolkit(options);
  type Config = { signal?: AbortSignal; toolCall?: { id?: string } };

  class SkillmuxTool extends tools.StructuredTool {
    name: string;
    description: string;
    // deno-lint-ignore no-explicit-any
    schema: any;
    constructor(d: { name: string; description: string; schema: Record<string, unknown> }) {
      super();
      this.name = d.name;
      this.description = d.description;
      this.schema = d.schema;
    }
    // skillmux checks the arguments (bounded, linear-time patterns); LangChain's own check, run
    // on a view of this tool whose schema accepts anything, would run a server's patterns natively.
    // deno-lint-ignore no-explicit-any
    override call(arg: any, config?: any, tags?: string[]): Promise<any> {
      return super.call.call(Object.create(this, { schema: { value: {} } }), arg, config, tags);
    }
    protected override async _call(
      input: Record<string, unknown>,
      _run?: unknown,
      config?: Config,
    ): Promise<string | ToolMessage> {
      const id = config?.toolCall?.id;
      const result = await kit.run(this.name, input, id ?? "", config?.signal);
      if (id === undefined) return content(result) as string;
      return new messages.ToolMessage({
        // deno-lint-ignore no-explicit-any
        content: content(result) as any,
        tool_call_id: id,
        name: this.name,
        status: result.isError ? "error" : "success",
        artifact: result.content,
      });
    }
  }

  const all = kit.definitions.map((d) => new SkillmuxTool(d));
  const byName = new Map(all.map((t) => [t.name, t]));
  const step = () =>
    kit.discovery.advance().map((name) => byName.get(name)).filter((t) => t !== undefined);
  return {
    tools: all,
    step,
    async invoke(call, config) {
      const id = call.id ?? "";
      const tool = byName.get(call.name);
      if (!tool) {
        const result = await kit.run(call.name, call.args, id, config?.signal);
        return new messages.ToolMessage({
          content: content(result) as string,
          tool_call_id: id,
          name: call.name,
          status: "error",
          artifact: result.content,
        });
      }
      return await tool.invoke({ ...call, id, type: "tool_call" }, config) as ToolMessage;
    },
    system: new messages.SystemMessage(kit.system),
    systemText: kit.system,
    diagnostics: kit.diagnostics,
    held: kit.held,
    close: () => kit.close(),
  };
}
