// Private: `--discover`: the meta-tools `find_tools` and `call_tool` instead of every approved
// tool (progressive disclosure for hosts that cannot filter). `find_tools` ranks the approved
// tools for a query and shows their input schemas; `call_tool` runs one by id and refuses any id
// that is not an approved tool.

import type { Catalog } from "../catalog/types.ts";
import type { CallToolResult, Tool } from "../mcp/types.ts";
import type { GatewayView } from "./_gateway_view.ts";
import { type CallSettings, type HandlerExtra, proxyCall } from "./_gateway_call.ts";

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

/** `find_tools` and `call_tool`, as `tools/list` returns them. */
export const META_TOOLS: Tool[] = [
  {
    name: "find_tools",
    title: "Find tools",
    description:
      "Find the tools of the connected MCP servers for a task, ranked by relevance. Returns each tool's id, description and input schema; run one with call_tool.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: 'What the tool should do, e.g. "echo a message"' },
        limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, description: "Most results (default 5)" },
      },
      required: ["query"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "call_tool",
    title: "Call a tool",
    description: "Run a tool found with find_tools, by its id, with arguments matching its input schema.",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: 'The tool id from find_tools, e.g. "everything__echo"' },
        arguments: { type: "object", description: "The tool's arguments" },
      },
      required: ["id"],
    },
  },
];

/** The approved tools ranked for `query` (the catalog's keyword ranking: BM25+ with evidence). */
export function rankTools(catalog: Catalog, query: string, limit: number) {
  return catalog.rank(query, { kinds: ["tool"], limit }).map((hit) => hit.entry);
}

const failure = (text: string): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

/** `find_tools`. */
export function findTools(view: GatewayView, args: Record<string, unknown>): CallToolResult {
  const { query, limit = DEFAULT_LIMIT } = args;
  if (typeof query !== "string" || query.trim() === "") {
    return failure('find_tools needs a "query" string argument, e.g. { "query": "echo a message" }');
  }
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    return failure('find_tools: "limit" must be a positive integer');
  }
  const byId = new Map(view.tools.map((tool) => [tool.name, tool]));
  const tools = rankTools(view.catalog, query, Math.min(limit, MAX_LIMIT))
    .map((entry) => byId.get(entry.id))
    .filter((tool): tool is Tool => tool !== undefined)
    .map(({ name, title, description, inputSchema, annotations }) => ({
      id: name,
      ...(title !== undefined ? { title } : {}),
      description: description ?? "",
      inputSchema,
      ...(annotations !== undefined ? { annotations } : {}),
    }));
  const text = tools.length === 0
    ? `No tool matches "${query}".`
    : tools.map((t) => `- ${t.id}: ${t.description}\n  input: ${JSON.stringify(t.inputSchema)}`)
      .join("\n");
  return { content: [{ type: "text", text }], structuredContent: { tools } };
}

/** `call_tool`: only approved tools (held, unknown and the meta-tools themselves are refused). */
export async function callTool(
  view: GatewayView,
  args: Record<string, unknown>,
  extra: HandlerExtra,
  settings: CallSettings,
): Promise<CallToolResult> {
  const { id, arguments: inner = {} } = args;
  if (typeof id !== "string" || id === "") {
    return failure('call_tool needs an "id" string argument, e.g. { "id": "everything__echo" }');
  }
  if (inner === null || typeof inner !== "object" || Array.isArray(inner)) {
    return failure('call_tool: "arguments" must be an object');
  }
  return await proxyCall(view, id, inner as Record<string, unknown>, extra, settings);
}
