// Private: the MCP server of one gateway session: the skills server (resources, the skills
// extension's entries, `search_skills`, `get_skill`) plus the approved upstream tools under their
// catalog ids, or with `discover` the meta-tools `find_tools` and `call_tool`. The session is
// told `notifications/tools/list_changed` when its view's tools change: at once (a stdio host, an
// HTTP client with an open GET stream), when its GET stream opens if it opened after the change,
// and again on its next request's own stream, for clients that never open one.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "../mcp/protocol/types.ts";
import { buildMcpServer } from "./_mcp.ts";
import { callSkillTool } from "./_skill_tools.ts";
import { SKILL_TOOLS } from "./_tools.ts";
import type { GatewayView } from "./_gateway_view.ts";
import { type CallSettings, type HandlerExtra, proxyCall } from "./_gateway_call.ts";
import { callTool, findTools, metaTools } from "./_gateway_discover.ts";
import { installTaskHandlers, relayToolTask } from "./_gateway_tasks.ts";

/** Gateway instructions for the model. */
const SKILLS =
  "Skills are Markdown documents at skill://<name>, their files at skill://<name>/<path>: " +
  "search_skills finds one, get_skill reads it and lists its files, read_skill_file reads a file. ";
const INSTRUCTIONS = SKILLS +
  "The other tools are those of the user's MCP servers, named <server>__<tool>.";
const DISCOVER_INSTRUCTIONS = SKILLS +
  "The tools of the user's MCP servers are found with find_tools and run with call_tool.";

/** A gateway session's server and a way to detach it from the view when it closes. */
export interface GatewaySession {
  mcp: McpServer;
  dispose(): void;
  /** A standalone stream (GET) just opened: tell it of a change the session has not listed yet. */
  streamOpened(): void;
}

/** Build the server of one session over `view`. */
export function buildGatewayServer(
  view: GatewayView,
  discover: boolean,
  settings: CallSettings,
  stdio = false,
): GatewaySession {
  let seen = view.version;
  let seenSkills = view.skillsVersion;
  type Notify = { sendNotification(n: { method: string }): Promise<void> };
  const catchUp = async (extra: Notify) => {
    if (seen === view.version) return;
    seen = view.version;
    await extra.sendNotification({ method: "notifications/tools/list_changed" }).catch(() => {});
  };
  const approveCommand = settings.approveCommand ?? "skillmux approve";
  const mcp = buildMcpServer(
    view.skills,
    // A client that never opens a GET stream hears of changed skills on its next request.
    async (notify) => {
      if (seenSkills === view.skillsVersion) return;
      seenSkills = view.skillsVersion;
      await notify().catch(() => {});
    },
    discover ? DISCOVER_INSTRUCTIONS : INSTRUCTIONS,
  );
  mcp.server.registerCapabilities({ tools: { listChanged: true } });
  // Tasks are passed through to a host that declared them (see _gateway_tasks.ts).
  const hostTakesTasks = () => mcp.server.getClientCapabilities()?.tasks !== undefined;
  installTaskHandlers(mcp, view, settings, hostTakesTasks);
  const withExecution = (tools: readonly Tool[]) => {
    if (!hostTakesTasks()) return tools;
    return tools.map((tool) => {
      const support = view.taskSupport(tool.name);
      return support === undefined ? tool : { ...tool, execution: { taskSupport: support } };
    });
  };
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => {
    seen = view.version;
    const upstream = discover
      ? [...metaTools(view.findToolsDescription(approveCommand)), ...view.pinned]
      : view.tools;
    return { tools: [...SKILL_TOOLS, ...withExecution(upstream)] };
  });
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await catchUp(extra as unknown as Notify);
    const name = request.params.name;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const ex = extra as unknown as HandlerExtra;
    const task = (request.params as { task?: Record<string, unknown> }).task;
    if (task !== undefined) {
      if (!hostTakesTasks()) {
        throw new McpError(ErrorCode.MethodNotFound, "This host did not declare tasks");
      }
      // Only a tool listed to this host runs as a task (with discover: the pinned ones).
      if (!(discover ? view.pinned : view.tools).some((tool) => tool.name === name)) {
        throw new McpError(
          ErrorCode.MethodNotFound,
          `Tool "${name.slice(0, 80)}" does not run as a task here: it is not listed`,
        );
      }
      return await relayToolTask(view, name, { arguments: args, task }, ex, settings) as never;
    }
    const skillAnswer = await callSkillTool(view.skills, name, args);
    if (skillAnswer !== undefined) return skillAnswer;
    if (discover && !view.pinned.some((tool) => tool.name === name)) {
      if (name === "find_tools") return findTools(view, args, settings.approveCommand);
      if (name === "call_tool") return await callTool(view, args, ex, settings);
      return {
        content: [{
          type: "text",
          text: `Use find_tools and call_tool: there is no tool "${name.slice(0, 80)}" here`,
        }],
        isError: true,
      };
    }
    return await proxyCall(view, name, args, ex, settings);
  });
  const stopTools = view.onToolsChanged(() => {
    // `seen` stays: a client without a GET stream misses this and hears it on its next call.
    if (!mcp.isConnected()) return;
    mcp.server.sendToolListChanged().catch(() => {});
  });
  const stopSkills = view.onSkillsChanged(() => {
    // Over HTTP `seenSkills` stays too (the SDK drops what no GET stream carries): the next
    // request's own stream carries it again. Over stdio it always arrives.
    if (!mcp.isConnected()) return;
    if (stdio) seenSkills = view.skillsVersion;
    mcp.server.sendResourceListChanged().catch(() => {});
  });
  const dispose = () => {
    stopTools();
    stopSkills();
  };
  const streamOpened = () => {
    if (!mcp.isConnected()) return;
    if (seen !== view.version) mcp.server.sendToolListChanged().catch(() => {});
    if (seenSkills !== view.skillsVersion) mcp.server.sendResourceListChanged().catch(() => {});
  };
  return { mcp, dispose, streamOpened };
}
