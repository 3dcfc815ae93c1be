/**
 * skillmux for the Vercel AI SDK (`ai`): the selection as a `ToolSet`, the
 * system text, and discovery through `prepareStep`. `ai` is an optional peer
 * dependency: install it next to `@skillmux/core` (`npm install ai`).
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs, type LanguageModel } from "ai";
 * import { createBuiltinSource, createCatalog, createResolver } from "@skillmux/core";
 * import { aiSdkTools } from "@skillmux/core/ai-sdk";
 * declare const model: LanguageModel; // e.g. anthropic("claude-sonnet-4-5")
 * const catalog = await createCatalog({ resolver: createResolver({ sources: [createBuiltinSource()] }) });
 * const request = "sort and index my BAM file";
 * const skillmux = await aiSdkTools({ catalog, request, discovery: true });
 * const result = await generateText({
 *   model,
 *   system: skillmux.system,
 *   prompt: request,
 *   tools: skillmux.tools,
 *   prepareStep: skillmux.prepareStep,
 *   stopWhen: stepCountIs(8),
 * });
 * console.log(result.text);
 * await skillmux.close();
 * ```
 *
 * @module
 */

import type { ToolCallResult } from "../prompt/types.ts";
import type { FrameworkToolsOptions, HeldFrameworkTool } from "./types.ts";
import { importPeer } from "../_peer.ts";
import { buildToolkit } from "./_toolkit.ts";
import { contentText } from "../prompt/results.ts";

export type { FrameworkToolsOptions, HeldFrameworkTool } from "./types.ts";

/** The AI SDK, an optional peer dependency; keep in step with package.json. */
const AI = { name: "ai", range: "^7.0.0", entry: "@skillmux/core/ai-sdk" };

/** What a skillmux tool's `execute` returns (the model sees it through `toModelOutput`). */
export interface SkillmuxToolOutput {
  /** The catalog id that ran (`activate_skill`, `find_tools` for the meta-tools). */
  id: string;
  /** Whether the call failed: bad arguments, a refused or unknown tool, the tool's own error. */
  isError: boolean;
  /** The result as text (non-text content described). */
  text: string;
  /** Images of the result, base64. */
  images: Array<{ mediaType: string; data: string }>;
  /** Notes, e.g. output that tries to address the model. */
  diagnostics: string[];
}

/**
 * The AI SDK's `ToolSet` (from `ai`), as `generateText` and `streamText` take it.
 *
 * @ignore
 */
export type AiSdkToolSet = import("ai").ToolSet;

/** What {@linkcode aiSdkTools} returns. */
export interface AiSdkSkillmux {
  /** The tools: pass as `tools` (in discovery mode every usable tool; `prepareStep` picks). */
  tools: AiSdkToolSet;
  /** The system text (selected skills, tool provenance, fencing rules): pass as `system`. */
  system: string;
  /** Pass as `prepareStep`: each step's `activeTools`, with what `find_tools` found. */
  prepareStep: () => { activeTools: string[] };
  /** The tool names callable in the current step. */
  activeTools(): string[];
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

function output(result: ToolCallResult): SkillmuxToolOutput {
  const images = result.content.flatMap((b) =>
    b.type === "image" && /^image\/(png|jpeg|gif|webp)$/.test(b.mimeType)
      ? [{ mediaType: b.mimeType, data: b.data }]
      : []
  );
  const text = contentText(result.content.filter((b) => b.type !== "image" || !images.length));
  return { id: result.id, isError: result.isError, text, images, diagnostics: result.diagnostics };
}

/**
 * The selected skills and tools for `request` as an AI SDK `ToolSet`, with the
 * system text. Each tool's `execute` goes through skillmux's `executeToolCall`:
 * arguments checked against the schema (linear-time, bounded), approvals (a
 * held tool never runs), the timeout, and the step's `abortSignal` cancelling
 * the call. Results reach the model as text, images as image parts, failures
 * as error text. Skills come as an `activate_skill` tool (`skills: "tool"`,
 * the default). With `discovery: true`, `find_tools` is offered and
 * `prepareStep` makes what it finds active from the next step.
 *
 * @example A selection made beforehand
 * ```ts
 * import { generateText, type LanguageModel } from "ai";
 * import { createCatalog, selectForRequest } from "@skillmux/core";
 * import { aiSdkTools } from "@skillmux/core/ai-sdk";
 * declare const model: LanguageModel;
 * const catalog = await createCatalog({
 *   functions: [{ name: "add", description: "Add two numbers", handler: ({ a, b }) => Number(a) + Number(b) }],
 * });
 * const request = "add 2 and 3";
 * const selection = await selectForRequest(catalog, request);
 * const { tools, system, close } = await aiSdkTools({ catalog, request, selection });
 * const { text } = await generateText({ model, system, prompt: request, tools });
 * console.log(text);
 * await close();
 * ```
 */
export async function aiSdkTools(options: FrameworkToolsOptions): Promise<AiSdkSkillmux> {
  const ai = await importPeer(() => import("ai"), AI);
  const kit = await buildToolkit(options);
  const tools: AiSdkToolSet = {};
  for (const d of kit.definitions) {
    tools[d.name] = ai.tool({
      description: d.description,
      inputSchema: ai.jsonSchema<Record<string, unknown>>(
        d.schema as Parameters<typeof ai.jsonSchema>[0],
      ),
      execute: async (input, { toolCallId, abortSignal }): Promise<SkillmuxToolOutput> =>
        output(await kit.run(d.name, input, toolCallId, abortSignal)),
      toModelOutput: ({ output: out }) =>
        out.isError
          ? { type: "error-text", value: out.text }
          : out.images.length === 0
          ? { type: "text", value: out.text }
          : {
            type: "content",
            value: [
              ...(out.text ? [{ type: "text" as const, text: out.text }] : []),
              ...out.images.map((i) => ({
                type: "file" as const,
                mediaType: i.mediaType,
                data: { type: "data" as const, data: i.data },
              })),
            ],
          },
    });
  }
  const activeTools = () => kit.discovery.advance();
  return {
    tools,
    system: kit.system,
    prepareStep: () => ({ activeTools: activeTools() }),
    activeTools: () => [...kit.discovery.active],
    diagnostics: kit.diagnostics,
    held: kit.held,
    close: () => kit.close(),
  };
}
