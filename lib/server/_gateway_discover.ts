// Private: `--discover`: the meta-tools `find_tools` and `call_tool` instead of every approved
// tool (progressive disclosure for hosts that cannot filter). `find_tools` ranks the approved
// tools for a query with the catalog's `findTools` (BM25+ and the selection's evidence floor) and
// shows their input schemas; `call_tool` runs one by id and refuses any id that is not an
// approved tool.

import { findTools as rank } from "../catalog/search/find_tools.ts";
import { findHeldTools } from "../catalog/search/held_tools.ts";
import type { CallToolResult, Tool } from "../mcp/protocol/types.ts";
import type { GatewayView } from "./_gateway_view.ts";
import { type CallSettings, type HandlerExtra, proxyCall } from "./_gateway_call.ts";

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

/**
 * `find_tools` and `call_tool`, as `tools/list` returns them, `find_tools` described by
 * `description` (what lies behind it: the view's `findToolsDescription`).
 */
export function metaTools(description?: string): Tool[] {
  if (description === undefined) return META_TOOLS;
  const [find, call] = META_TOOLS;
  return [{ ...find, description }, call];
}

/** `find_tools` and `call_tool` with the generic description. */
const META_TOOLS: Tool[] = [
  {
    name: "find_tools",
    title: "Find tools",
    description:
      "Find the tools of the connected MCP servers for a task, ranked by relevance. Returns each tool's id, description and input schema; run one with call_tool.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: 'What the tool should do, e.g. "echo a message"' },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: MAX_LIMIT,
          description: "Most results (default 5)",
        },
      },
      required: ["query"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "call_tool",
    title: "Call a tool",
    description:
      "Run a tool found with find_tools, by its id, with arguments matching its input schema.",
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

const failure = (text: string): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

/** `find_tools`. */
export function findTools(
  view: GatewayView,
  args: Record<string, unknown>,
  approveCommand = "skillmux approve",
): CallToolResult {
  const { query, limit = DEFAULT_LIMIT } = args;
  if (typeof query !== "string" || query.trim() === "") {
    return failure(
      'find_tools needs a "query" string argument, e.g. { "query": "echo a message" }',
    );
  }
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    return failure('find_tools: "limit" must be a positive integer');
  }
  const byId = new Map(view.tools.map((tool) => [tool.name, tool]));
  const tools = rank(view.catalog, query, { limit: Math.min(limit, MAX_LIMIT), kinds: ["tool"] })
    .flatMap((found) => {
      const tool = byId.get(found.id);
      if (tool === undefined) return [];
      const { title, inputSchema, annotations } = tool;
      return [{
        id: found.id,
        ...(title !== undefined ? { title } : {}),
        description: found.description,
        why: found.why,
        inputSchema,
        ...(annotations !== undefined ? { annotations } : {}),
      }];
    });
  // Tools that fit but wait for approval are said (ids only), so the agent can ask the user.
  const held = findHeldTools(view.catalog, query, {
    limit: Math.min(limit, MAX_LIMIT),
    kinds: ["tool"],
  })
    .map((h) => h.id);
  const waiting = held.length === 0
    ? ""
    : `Waiting for a person's approval, not callable: ${held.join(", ")}. If one is needed, ` +
      `ask the user to approve it (${approveCommand} ${held.join(" ")}).`;
  const text = tools.length === 0
    ? waiting
      ? `No callable tool matches "${query}". ${waiting}`
      : `No tool matches "${query}". Try other words for what the tool should do.`
    : [
      ...tools.map((t) => `- ${t.id}: ${t.description}\n  input: ${JSON.stringify(t.inputSchema)}`),
      ...(waiting ? [waiting] : []),
    ].join("\n");
  return {
    content: [{ type: "text", text }],
    structuredContent: { tools, ...(held.length > 0 ? { held } : {}) },
  };
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
