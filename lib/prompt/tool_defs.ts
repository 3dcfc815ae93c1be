/**
 * Tool definitions in the OpenAI and Anthropic formats: a catalog entry's, and those of the two
 * meta-tools (`activate_skill`, `find_tools`). Prompt assembly, tool discovery and the framework
 * adapters (`frameworks/`) offer the same definitions.
 *
 * @module
 */

import { cleanSchema } from "../_schema_text.ts";
import { cleanLine } from "../_text_clean.ts";
import type { CatalogEntry, JsonSchema } from "../catalog/model/types.ts";
import type { AnthropicTool, OpenAiTool } from "./types.ts";

/**
 * The name of the skill activation tool.
 *
 * @example
 * ```ts
 * import { ACTIVATE_SKILL } from "./tool_defs.ts";
 * console.log(ACTIVATE_SKILL); // "activate_skill"
 * ```
 */
export const ACTIVATE_SKILL = "activate_skill";

/**
 * The name of the discovery meta-tool.
 *
 * @example
 * ```ts
 * import { FIND_TOOLS } from "./tool_defs.ts";
 * console.log(FIND_TOOLS); // "find_tools"
 * ```
 */
export const FIND_TOOLS = "find_tools";

/** Both formats of one tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  schema: JsonSchema;
}

/**
 * The `find_tools` definition: one `query` string, what the tool must do.
 *
 * @example
 * ```ts
 * import { FIND_DEFINITION, toOpenAi } from "./tool_defs.ts";
 * console.log(toOpenAi(FIND_DEFINITION).function.name); // "find_tools"
 * ```
 */
export const FIND_DEFINITION: ToolDefinition = {
  name: FIND_TOOLS,
  description:
    "Search for more tools when none of the tools offered fits the next step. Describe what the tool must do in a few specific words (the data, format or service, and the action). Tools found become callable from your next step.",
  schema: {
    type: "object",
    properties: {
      query: { type: "string", description: "What the tool must do, in a few specific words" },
    },
    required: ["query"],
    additionalProperties: false,
  },
};

/** A schema both APIs accept: an object at the top, without `$schema`. */
function objectSchema(schema: JsonSchema | undefined): JsonSchema {
  const { $schema: _drop, ...rest } = schema ?? {};
  return rest.type === "object"
    ? rest
    : { ...rest, type: "object", properties: rest.properties ?? {} };
}

/**
 * The definition of a catalog entry; remote descriptions say where they come from, and remote
 * input schemas reach the model without hidden characters at any depth.
 *
 * @example
 * ```ts
 * import { entryDefinition } from "./tool_defs.ts";
 * import type { CatalogEntry } from "../catalog/model/types.ts";
 * declare const entry: CatalogEntry; // a remote tool of server "gh"
 * console.log(entryDefinition(entry).description); // "[mcp:gh, untrusted] …"
 * ```
 */
export function entryDefinition(entry: CatalogEntry): ToolDefinition {
  const description = cleanLine(entry.description || entry.title || entry.name, 1_024);
  return {
    name: entry.id,
    description: entry.remote ? `[${entry.source}, untrusted] ${description}` : description,
    schema: objectSchema(
      entry.remote && entry.inputSchema ? cleanSchema(entry.inputSchema) : entry.inputSchema,
    ),
  };
}

/**
 * The `activate_skill` definition over `skills`: its `name` is one of their ids.
 *
 * @example
 * ```ts
 * import { activateDefinition } from "./tool_defs.ts";
 * import type { CatalogEntry } from "../catalog/model/types.ts";
 * declare const skills: CatalogEntry[];
 * console.log(activateDefinition(skills).schema.required); // ["name"]
 * ```
 */
export function activateDefinition(skills: readonly CatalogEntry[]): ToolDefinition {
  const list = skills.map((s) => `${s.id}: ${cleanLine(s.description, 100)}`).join("; ");
  return {
    name: ACTIVATE_SKILL,
    description:
      `Load a skill's full instructions (concepts, pitfalls, worked examples) before using it. Available: ${list}`,
    schema: {
      type: "object",
      properties: {
        name: { type: "string", enum: skills.map((s) => s.id), description: "The skill to load" },
      },
      required: ["name"],
      additionalProperties: false,
    },
  };
}

/**
 * The OpenAI form (`{ type: "function", function: { name, description, parameters } }`).
 *
 * @example
 * ```ts
 * import { FIND_DEFINITION, toOpenAi } from "./tool_defs.ts";
 * console.log(toOpenAi(FIND_DEFINITION).type); // "function"
 * ```
 */
export const toOpenAi = (d: ToolDefinition): OpenAiTool => ({
  type: "function",
  function: { name: d.name, description: d.description, parameters: d.schema },
});

/**
 * The Anthropic form (`{ name, description, input_schema }`).
 *
 * @example
 * ```ts
 * import { FIND_DEFINITION, toAnthropic } from "./tool_defs.ts";
 * console.log(toAnthropic(FIND_DEFINITION).input_schema.required); // ["query"]
 * ```
 */
export const toAnthropic = (d: ToolDefinition): AnthropicTool => ({
  name: d.name,
  description: d.description,
  input_schema: d.schema,
});
