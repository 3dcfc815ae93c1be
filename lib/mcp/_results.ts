// Private: valibot schemas for the MCP results the client reads. Loose objects:
// unknown fields are kept, required ones are checked.

import * as v from "valibot";

const json = v.record(v.string(), v.unknown());

/** `initialize` result. */
export const InitializeResultSchema = v.looseObject({
  protocolVersion: v.string(),
  capabilities: v.optional(json, {}),
  serverInfo: v.looseObject({ name: v.string(), version: v.optional(v.string(), "") }),
  instructions: v.optional(v.string()),
});

const page = <T extends v.GenericSchema>(key: string, item: T) =>
  v.looseObject({ [key]: v.array(item), nextCursor: v.optional(v.nullish(v.string())) });

/** `tools/list` page. */
export const ToolsPageSchema = page(
  "tools",
  v.looseObject({ name: v.string(), inputSchema: v.optional(json, { type: "object" }) }),
);
/** `resources/list` page. */
export const ResourcesPageSchema = page(
  "resources",
  v.looseObject({ uri: v.string(), name: v.string() }),
);
/** `resources/templates/list` page. */
export const TemplatesPageSchema = page(
  "resourceTemplates",
  v.looseObject({ uriTemplate: v.string(), name: v.string() }),
);
/** `prompts/list` page. */
export const PromptsPageSchema = page("prompts", v.looseObject({ name: v.string() }));

/** `resources/read` result. */
export const ReadResourceSchema = v.looseObject({
  contents: v.array(
    v.looseObject({ uri: v.string(), text: v.optional(v.string()), blob: v.optional(v.string()) }),
  ),
});

/** `tools/call` result. */
export const CallToolSchema = v.looseObject({
  content: v.optional(v.array(v.looseObject({ type: v.string() })), []),
  structuredContent: v.optional(json),
  isError: v.optional(v.boolean()),
});

/** `prompts/get` result. */
export const GetPromptSchema = v.looseObject({
  messages: v.array(
    v.looseObject({ role: v.string(), content: v.looseObject({ type: v.string() }) }),
  ),
});
