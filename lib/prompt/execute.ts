/**
 * `executeToolCall`: run a model's tool call (OpenAI or Anthropic format) on
 * the right MCP server or host function, and answer in the same format.
 *
 * @module
 */

import type { ExecuteToolCallOptions, ToolCall, ToolCallResult } from "./types.ts";

/**
 * Run `call`, a tool call as OpenAI (`{ id, type: "function", function: {
 * name, arguments } }`) or Anthropic (`{ type: "tool_use", id, name, input }`)
 * return it. The arguments are checked against the tool's input schema with
 * `@cfworker/json-schema` (no `eval`, so it runs on edge runtimes and in
 * browsers); for remote tools, patterns run on a linear-time matcher
 * and the check is bounded in steps and by the timeout, so no server's schema
 * can block the event loop. Then the call goes to the MCP server or host
 * function behind the id. The answer is in the call's format: an OpenAI `tool` message or an
 * Anthropic `tool_result` block. A failing tool, bad arguments or an unknown
 * id become an error result (`isError: true`), never a throw; only a caller's
 * abort rejects.
 *
 * @example A host function called by an Anthropic tool_use block
 * ```ts
 * import { createCatalog, executeToolCall } from "@skillmux/core";
 * const catalog = await createCatalog({
 *   functions: [{
 *     name: "add",
 *     description: "Add two numbers",
 *     inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *     handler: ({ a, b }) => Number(a) + Number(b),
 *   }],
 * });
 * const result = await executeToolCall({ type: "tool_use", id: "toolu_1", name: "add", input: { a: 2, b: 3 } }, { catalog });
 * console.log(result.reply); // { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "5" }] }
 * ```
 */
export async function executeToolCall(
  call: ToolCall,
  options: ExecuteToolCallOptions,
): Promise<ToolCallResult> {
  const { execute } = await import("./_execute.ts");
  return await execute(call, options);
}
