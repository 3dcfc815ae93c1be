/**
 * `createToolDiscovery`: tools an agent finds mid-loop with `find_tools`,
 * callable from its next step, for hand-written loops (the AI SDK and
 * LangChain adapters build on it).
 *
 * @module
 */

import type { ToolDiscovery, ToolDiscoveryOptions } from "./discovery_types.ts";

/**
 * A discovery session for one conversation. Each step, `definitions(format)`
 * gives the tools callable now (the initial selection and what was found),
 * plus `find_tools`, a meta-tool the model calls with a few words to search
 * the catalog (`findTools`: the selection's ranker and evidence floor, held
 * entries never offered). What it finds becomes callable from the next step.
 * `handle(call)` answers `find_tools` and runs every other call through
 * `executeToolCall`, limited to what is callable in this step: a held tool,
 * or one never offered, is refused whatever the model names.
 *
 * @example A hand-written loop around any chat API
 * ```ts
 * import { createCatalog } from "@skillmux/core";
 * import { createToolDiscovery } from "@skillmux/core/prompt";
 * const catalog = await createCatalog({
 *   functions: [{
 *     name: "lookup_sample",
 *     description: "Find a sample's FASTQ files by sample id",
 *     inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
 *     handler: ({ id }) => [`${id}_R1.fastq.gz`],
 *   }],
 * });
 * const discovery = await createToolDiscovery({ catalog });
 * console.log(discovery.definitions("openai").map((t) => t.function.name)); // ["find_tools"]
 * const found = await discovery.handle({ type: "tool_use", id: "1", name: "find_tools", input: { query: "fastq files of a sample" } });
 * console.log(found.content); // Found 1: - lookup_sample: …
 * console.log(discovery.definitions("openai").map((t) => t.function.name)); // ["lookup_sample", "find_tools"]
 * const files = await discovery.handle({ type: "tool_use", id: "2", name: "lookup_sample", input: { id: "S1" } });
 * console.log(files.isError); // false
 * await discovery.close();
 * ```
 */
export async function createToolDiscovery(options: ToolDiscoveryOptions): Promise<ToolDiscovery> {
  const { createDiscovery } = await import("./_discovery.ts");
  return createDiscovery(options);
}
