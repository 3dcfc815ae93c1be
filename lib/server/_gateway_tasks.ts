// Private: tasks passed through (MCP 2025-11-25, SEP-1686). To a host that declares the `tasks`
// capability the gateway declares `tasks` too (list, cancel, task-augmented tools/call), lists the
// `execution.taskSupport` of the tools whose server supports tasks, and relays: a task-augmented
// `tools/call` goes to the tool's server as one, and the host's `tasks/get`, `tasks/result`,
// `tasks/cancel` and `tasks/list` go to the server that holds each task. The host sees ids of
// the gateway's own (a UUID per task), never the upstream ones, so two servers' ids cannot
// collide and a host cannot name a task another user started (the tasks are the view's: one
// user's). A host that declares no tasks sees the gateway as before: no `tasks` capability, no
// `execution`, tools that require a task run as tasks upstream under the host's plain call.

// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { GatewayView } from "./_gateway_view.ts";
import type { CallSettings } from "./_gateway_call.ts";
import { takesToolTasks } from "./_gateway_task_relay.ts";

type Result = Record<string, unknown>;

const RELATED = "io.modelcontextprotocol/related-task";
const DEFAULT_CALL_MS = 60_000;

/** What the gateway declares to a host that takes part in tasks. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** `result` with the upstream task id replaced by the host's, in `taskId`, `task` and `_meta`. */
function relabel(result: Result, id: string): Result {
  const out: Result = { ...result };
  if (typeof out.taskId === "string") out.taskId = id;
  if (out.task !== null && typeof out.task === "object") out.task = { ...out.task, taskId: id };
  const meta = out._meta as Result | undefined;
  if (meta?.[RELATED] !== undefined) out._meta = { ...meta, [RELATED]: { taskId: id } };
  return out;
}

/** An upstream error as the host's error (its JSON-RPC code kept when it has one). */
function asMcpError(error: unknown, server: string): McpError {
  if (error instanceof McpError) return error;
  // The client's RpcError carries the JSON-RPC number as `rpcCode`; other errors may as `code`.
  const { rpcCode, code: own } = (error ?? {}) as { rpcCode?: unknown; code?: unknown };
  const code = typeof rpcCode === "number" ? rpcCode : own;
  const message = error instanceof Error ? error.message : String(error);
  return new McpError(
    typeof code === "number" ? code : ErrorCode.InternalError,
    `server "${server}": ${message.replace(/^.*?MCP error -?\d+: /, "").slice(0, 500)}`,
  );
}

/** What the SDK hands a request handler (the parts used here). */
interface Extra {
  signal: AbortSignal;
}

/**
 * A host's task-augmented `tools/call` of catalog id `id`, relayed to its server as a task;
 * resolves with the `CreateTaskResult` under the host's id.
 */
export async function relayToolTask(
  view: GatewayView,
  id: string,
  params: { arguments?: Result; task?: Result },
  extra: Extra,
  settings: CallSettings,
): Promise<Result> {
  const entry = view.catalog.get(id);
  const support = view.taskSupport(id);
  if (entry === undefined || entry.kind !== "tool" || support === undefined) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Tool "${id.slice(0, 80)}" does not run as a task here: call it without "task"`,
    );
  }
  const server = entry.server ?? "?";
  const client = await view.pool.client(entry, extra.signal);
  if (!takesToolTasks(client.capabilities)) {
    throw new McpError(
      ErrorCode.MethodNotFound,
      `Server "${server}" no longer takes tasks: call "${id}" without "task"`,
    );
  }
  let created: Result;
  try {
    created = await client.request("tools/call", {
      name: entry.name,
      arguments: params.arguments ?? {},
      task: params.task ?? {},
    }, { signal: extra.signal, timeoutMs: settings.callTimeoutMs ?? DEFAULT_CALL_MS });
  } catch (error) {
    throw asMcpError(error, server);
  }
  const task = created.task as Result | undefined;
  if (typeof task?.taskId !== "string") {
    throw new McpError(ErrorCode.InternalError, `server "${server}" answered no task for "${id}"`);
  }
  const mine = view.tasks.add(server, task.taskId, client);
  settings.log?.(`${id}: task relayed to ${server}`);
  return relabel(created, mine);
}

/**
 * Answer the host's `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` on `mcp` by
 * asking the servers that hold the tasks; `hostTakesTasks` says whether this host declared tasks.
 */
export function installTaskHandlers(
  mcp: McpServer,
  view: GatewayView,
  settings: CallSettings,
  hostTakesTasks: () => boolean,
): void {
  const server = mcp.server;
  server.registerCapabilities({ tasks: TASKS_CAPABILITY });
  // Declared only to a host that declared tasks itself: the SDK builds its initialize answer
  // from `getCapabilities()` (private in its types, a plain method at run time) after reading the
  // host's capabilities. The gateway tests check that both kinds of host see what they should.
  const own = server as unknown as { getCapabilities(): Record<string, unknown> };
  const declared = own.getCapabilities.bind(server);
  own.getCapabilities = () => {
    const all = declared();
    if (hostTakesTasks()) return all;
    const { tasks: _tasks, ...rest } = all;
    return rest;
  };
  const refuse = () => {
    if (!hostTakesTasks()) {
      throw new McpError(ErrorCode.MethodNotFound, "This host did not declare tasks");
    }
  };
  const ask = async (method: string, id: unknown, extra: Extra, long = false) => {
    refuse();
    const task = view.tasks.get(id);
    try {
      const result = await task.client.request(method, { taskId: task.upstream }, {
        signal: extra.signal,
        timeoutMs: long ? settings.callTimeoutMs ?? DEFAULT_CALL_MS : undefined,
        idempotent: method === "tasks/get",
      });
      return relabel(result, id as string);
    } catch (error) {
      throw asMcpError(error, task.server);
    }
  };
  server.setRequestHandler(
    GetTaskRequestSchema,
    (request, extra) => ask("tasks/get", request.params.taskId, extra) as never,
  );
  server.setRequestHandler(
    GetTaskPayloadRequestSchema,
    (request, extra) => ask("tasks/result", request.params.taskId, extra, true) as never,
  );
  server.setRequestHandler(
    CancelTaskRequestSchema,
    (request, extra) => ask("tasks/cancel", request.params.taskId, extra) as never,
  );
  server.setRequestHandler(ListTasksRequestSchema, async (_request, extra) => {
    refuse();
    const found = await Promise.all(
      view.tasks.recent().map(async ([id, task]) => {
        try {
          const got = await task.client.request("tasks/get", { taskId: task.upstream }, {
            signal: extra.signal,
            idempotent: true,
          });
          const { _meta: _drop, ...info } = relabel(got, id);
          return info;
        } catch (error) {
          // Its server forgot it (its ttl ran out): not listed again. Other failures: not now.
          if ((error as Error)?.name === "RpcError") view.tasks.forget(id);
          return undefined;
        }
      }),
    );
    return { tasks: found.filter((t) => t !== undefined) } as never;
  });
}
