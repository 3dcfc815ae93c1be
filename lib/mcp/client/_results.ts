// Private: the shapes of the MCP results the client reads (unknown fields are kept, required
// ones are checked), and the defaults some fields get.

import { isObject, problem, type Shape } from "../protocol/_shape.ts";

const page = (key: string, item: Shape): Shape => ({ [key]: item, nextCursor: "s?" });

const SHAPES: Record<string, Shape> = {
  initialize: { protocolVersion: "s", capabilities: "o?", serverInfo: "o", instructions: "s?" },
  "tools/list": page("tools", { name: "s", inputSchema: "o?" }),
  "resources/list": page("resources", { uri: "s", name: "s" }),
  "resources/templates/list": page("resourceTemplates", { uriTemplate: "s", name: "s" }),
  "prompts/list": page("prompts", { name: "s" }),
  "resources/read": { contents: { uri: "s", text: "s?", blob: "s?" } },
  "tools/call": { structuredContent: "o?", isError: "b?" },
  "prompts/get": { messages: { role: "s", content: "o" } },
};

/**
 * Check a result of `method` and fill its defaults (in place): `capabilities` `{}`,
 * `serverInfo.version` `""`, a tool's `inputSchema` `{ type: "object" }`, `content` `[]`.
 * Returns the problem, or `undefined` when the result is fine.
 */
export function checkResult(method: string, result: Record<string, unknown>): string | undefined {
  const shape = SHAPES[method];
  const found = shape === undefined ? undefined : problem(result, shape);
  if (found) return found;
  if (method === "initialize") {
    result.capabilities ??= {};
    const info = result.serverInfo as Record<string, unknown>;
    if (typeof info.name !== "string") return '"serverInfo.name" should be a string';
    info.version ??= "";
  } else if (method === "tools/list") {
    for (const tool of result.tools as Record<string, unknown>[]) {
      tool.inputSchema ??= { type: "object" };
    }
  } else if (method === "tools/call") {
    result.content ??= [];
    return problem(result, { content: { type: "s" } });
  } else if (method === "prompts/get") {
    const messages = result.messages as Array<{ content: unknown }>;
    const bad = messages.findIndex((m) =>
      !isObject(m.content) || typeof m.content.type !== "string"
    );
    if (bad >= 0) return `"messages.${bad}.content.type" should be a string`;
  }
  return undefined;
}
