// Private: the MCP server of one session (or one stateless request) over a skill catalog, on the
// official SDK: the skills as `skill://{name}` resources and their files as
// `skill://{name}/{+path}`, the skills extension's `skills/list` and `skills/get`, and the tools
// `search_skills`, `get_skill` and `read_skill_file`. The answers are those of _skill_rpc.ts and
// _skill_tools.ts, so stdio and HTTP (either era) say the same.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { SkillCatalog } from "./_catalog.ts";
import { skillResult } from "./_skill_rpc.ts";
import { callSkillTool } from "./_skill_tools.ts";
import { SKILL_TOOLS } from "./_tools.ts";
import { MalformedUriError } from "./_uri_name.ts";

export { getSkill, search } from "./_skill_tools.ts";

/** Called before each skills request with a way to send `list_changed` on that request's stream. */
export type BeforeRequest = (notifyListChanged: () => Promise<void>) => Promise<void>;

/** The server's instructions for the model. */
export const INSTRUCTIONS =
  "Skills are Markdown documents at skill://<name>; a skill's folder may hold files (scripts, " +
  "references, assets) at skill://<name>/<path>. Use search_skills to find one, get_skill to " +
  "read it and list its files, and read_skill_file to read a file it names.";
const RESOURCE_NOT_FOUND = -32002;

/**
 * A request schema for a method the SDK does not know (`skills/list`, `skills/get`): what its
 * `setRequestHandler` reads of a schema (the method literal, and a parse that keeps the request
 * as sent; the handler checks the params itself).
 */
function methodSchema(method: string) {
  return {
    shape: { method: { _def: { value: method } } },
    safeParse: (data: unknown) => ({ success: true, data }),
  } as unknown as typeof ListToolsRequestSchema;
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
  const hook = (extra: unknown) =>
    before?.(() =>
      (extra as Extra).sendNotification({ method: "notifications/resources/list_changed" })
    );
  /** `method` answered by _skill_rpc.ts; a URI that names nothing is `code`. */
  const answer = (method: string, code: number) => async (request: unknown, extra: unknown) => {
    await hook(extra);
    const params = (request as { params?: Record<string, unknown> }).params ?? {};
    let found;
    try {
      found = await skillResult(catalog, method, params);
    } catch (error) {
      if (error instanceof MalformedUriError) {
        throw new McpError(ErrorCode.InvalidParams, error.message, { uri: params.uri });
      }
      throw error;
    }
    if (found === null || found === undefined) {
      const uri = String(params.uri);
      throw new McpError(
        code,
        code === RESOURCE_NOT_FOUND ? `Resource ${uri} not found` : `${uri} not found`,
        {
          uri,
        },
      );
    }
    return found;
  };
  const server = mcp.server;
  server.setRequestHandler(ListResourcesRequestSchema, answer("resources/list", 0));
  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    answer("resources/templates/list", 0),
  );
  server.setRequestHandler(
    ReadResourceRequestSchema,
    answer("resources/read", RESOURCE_NOT_FOUND),
  );
  server.setRequestHandler(methodSchema("skills/list"), answer("skills/list", 0));
  server.setRequestHandler(
    methodSchema("skills/get"),
    answer("skills/get", ErrorCode.InvalidParams),
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: SKILL_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await hook(extra);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const result = await callSkillTool(catalog, request.params.name, args);
    if (result !== undefined) return result;
    throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
  });
  return mcp;
}
