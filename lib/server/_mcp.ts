// Private: the MCP server of one session (or one stateless request) over a skill catalog:
// `skill://{name}` resources with a list callback, and the tools `search_skills` and `get_skill`.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { SkillCatalog } from "./_catalog.ts";
import { safeNormalizeSkillName } from "../skill/name.ts";
import { searchSkills } from "./_search.ts";
import { SKILL_TOOLS } from "./_tools.ts";
import { decodeUriName } from "./_uri_name.ts";

/** Called before each skills request with a way to send `list_changed` on that request's stream. */
export type BeforeRequest = (notifyListChanged: () => Promise<void>) => Promise<void>;

const MARKDOWN = "text/markdown";
/** The server's instructions for the model. */
export const INSTRUCTIONS =
  "Skills are Markdown documents at skill://<name>. Use search_skills to find one and get_skill to read it.";
const RESOURCE_NOT_FOUND = -32002;
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

const failure = (text: string): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

/** `get_skill`. */
export async function getSkill(catalog: SkillCatalog, args: Record<string, unknown>) {
  if (typeof args.name !== "string" || args.name === "") {
    return failure('get_skill needs a "name" string argument, e.g. { "name": "samtools" }');
  }
  const name = safeNormalizeSkillName(args.name);
  const entry = name === undefined ? undefined : await catalog.get(name);
  if (entry !== undefined) return { content: [{ type: "text", text: entry.text }] };
  const close = await searchSkills(await catalog.snapshot(), args.name, 5);
  const hint = close.length > 0
    ? ` Did you mean ${close.map((hit) => `"${hit.name}"`).join(", ")}?`
    : "";
  if (name === undefined) {
    return failure(
      `${JSON.stringify(args.name)} is not a skill name: names are 1-64 lowercase ASCII ` +
        `letters, digits and single hyphens.${hint} Use search_skills to find skills.`,
    );
  }
  return failure(`No skill named "${args.name}".${hint} Use search_skills to find skills.`);
}

/** `search_skills`. */
export async function search(catalog: SkillCatalog, args: Record<string, unknown>) {
  const { query, limit = DEFAULT_LIMIT } = args;
  if (typeof query !== "string") {
    return failure('search_skills needs a "query" string argument, e.g. { "query": "sort bam" }');
  }
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    return failure('search_skills: "limit" must be a positive integer');
  }
  const hits = await searchSkills(await catalog.snapshot(), query, Math.min(limit, MAX_LIMIT));
  const results = hits.map((hit) => ({ ...hit, uri: `skill://${hit.name}` }));
  const text = results.length === 0
    ? `No skill matches "${query}".`
    : results.map((hit) => `- ${hit.name} (${hit.uri}): ${hit.description}`).join("\n");
  return { content: [{ type: "text", text }], structuredContent: { results } };
}

/**
 * An MCP server exposing `catalog`; `before` runs ahead of every list, read and tool call.
 * `instructions` replaces the default ones (the gateway's).
 */
export function buildMcpServer(
  catalog: SkillCatalog,
  before?: BeforeRequest,
  instructions: string = INSTRUCTIONS,
): McpServer {
  const mcp = new McpServer(
    { name: "skillmux", version: "0.1.0" },
    {
      capabilities: {
        tools: {},
        resources: { listChanged: true },
        extensions: { "io.modelcontextprotocol/skills": {} },
      },
      instructions,
    },
  );
  type Extra = {
    sendNotification(n: { method: "notifications/resources/list_changed" }): Promise<void>;
  };
  const hook = (extra: Extra) =>
    before?.(() => extra.sendNotification({ method: "notifications/resources/list_changed" }));
  const template = new ResourceTemplate("skill://{name}", {
    list: async (extra) => {
      await hook(extra);
      const { entries } = await catalog.snapshot();
      return {
        resources: [...entries.values()].map((entry) => ({
          uri: `skill://${entry.name}`,
          name: entry.name,
          description: entry.description,
          mimeType: MARKDOWN,
        })),
      };
    },
  });
  mcp.registerResource(
    "skill",
    template,
    { description: "A skill by name, as Markdown", mimeType: MARKDOWN },
    async (uri, { name }, extra) => {
      await hook(extra);
      let decoded: string;
      try {
        decoded = decodeUriName(String(name), uri.href);
      } catch (error) {
        throw new McpError(ErrorCode.InvalidParams, (error as Error).message, { uri: uri.href });
      }
      const wanted = safeNormalizeSkillName(decoded);
      const entry = wanted === undefined ? undefined : await catalog.get(wanted);
      if (entry === undefined) {
        throw new McpError(RESOURCE_NOT_FOUND, `Resource ${uri.href} not found`, { uri: uri.href });
      }
      return { contents: [{ uri: uri.href, mimeType: MARKDOWN, text: entry.text }] };
    },
  );
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: SKILL_TOOLS }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await hook(extra);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (request.params.name === "search_skills") return await search(catalog, args);
    if (request.params.name === "get_skill") return await getSkill(catalog, args);
    throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
  });
  return mcp;
}
