// Private: tool definitions in the OpenAI and Anthropic formats.

import { cleanSchema } from "../_schema_text.ts";
import { cleanLine } from "../_text_clean.ts";
import type { CatalogEntry, JsonSchema } from "../catalog/model/types.ts";
import type { AnthropicTool, OpenAiTool } from "./types.ts";

/** The name of the skill activation tool. */
export const ACTIVATE_SKILL = "activate_skill";

/** Both formats of one tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  schema: JsonSchema;
}

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

/** The `activate_skill` definition over `skills`. */
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

/** The OpenAI form. */
export const toOpenAi = (d: ToolDefinition): OpenAiTool => ({
  type: "function",
  function: { name: d.name, description: d.description, parameters: d.schema },
});

/** The Anthropic form. */
export const toAnthropic = (d: ToolDefinition): AnthropicTool => ({
  name: d.name,
  description: d.description,
  input_schema: d.schema,
});
