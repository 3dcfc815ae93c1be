// Private: a task-augmented `tools/call` (MCP 2025-11-25, SEP-1686). The call returns a task at
// once; the client polls `tasks/get` at the server's `pollInterval`, reports each status, and
// fetches `tasks/result` once the task completes, fails or needs input (`input_required`: the
// server delivers its elicitation or sampling requests on that `tasks/result` stream, answered by
// the host's handlers). An abort sends `tasks/cancel`.

import { McpError, ProtocolError } from "../protocol/errors.ts";
import type { TaskInfo, TaskStatus } from "./client_types.ts";
import { sleep } from "../transport/_retry.ts";

type Result = Record<string, unknown>;

/** How the task flow talks to the server. */
export interface TaskHost {
  server: string;
  /** One request; `long`: under the call timer (progress-aware), else the discovery timeout. */
  send(method: string, params: Result, signal: AbortSignal, long: boolean): Promise<Result>;
  log(line: string): void;
}

const STATUSES = new Set<string>(["working", "input_required", "completed", "failed", "cancelled"]);
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 30_000;
const DEFAULT_POLL_MS = 1_000;

/** The task in `value` (a `tasks/get` result, or `task` of a create result), checked. */
export function readTask(value: unknown, server: string): TaskInfo {
  const task = value as Record<string, unknown> | undefined;
  if (
    typeof task !== "object" || task === null || typeof task.taskId !== "string" ||
    !STATUSES.has(task.status as string)
  ) {
    throw new ProtocolError(`${server}: invalid task (needs a taskId and a known status)`, {
      server,
    });
  }
  const info: TaskInfo = { taskId: task.taskId, status: task.status as TaskStatus };
  if (typeof task.statusMessage === "string") info.statusMessage = task.statusMessage;
  if (typeof task.pollInterval === "number") info.pollInterval = task.pollInterval;
  if (typeof task.ttl === "number" || task.ttl === null) info.ttl = task.ttl;
  if (typeof task.createdAt === "string") info.createdAt = task.createdAt;
  if (typeof task.lastUpdatedAt === "string") info.lastUpdatedAt = task.lastUpdatedAt;
  return info;
}

/** Run `tools/call` as a task and resolve with its result. */
export async function runToolTask(
  host: TaskHost,
  params: Result,
  options: {
    signal: AbortSignal;
    ttlMs?: number;
    onTaskStatus?: (task: TaskInfo) => void;
  },
): Promise<Result> {
  const { signal, server } = { signal: options.signal, server: host.server };
  const created = await host.send(
    "tools/call",
    { ...params, task: options.ttlMs === undefined ? {} : { ttl: options.ttlMs } },
    signal,
    false,
  );
  // A server that ignores the task parameter answers with the result itself.
  if (created.task === undefined && Array.isArray(created.content)) return created;
  let task = readTask(created.task, server);
  const report = (current: TaskInfo) => {
    try {
      options.onTaskStatus?.(current);
    } catch (error) {
      host.log(`${server}: onTaskStatus threw (${(error as Error)?.name ?? "error"})`);
    }
  };
  try {
    for (let last = "";;) {
      const seen = `${task.status}\u0000${task.statusMessage ?? ""}`;
      if (seen !== last) report(task);
      last = seen;
      if (task.status === "cancelled") {
        throw new McpError(
          `${server}: task ${task.taskId} was cancelled by the server${
            task.statusMessage ? `: ${task.statusMessage.slice(0, 200)}` : ""
          }`,
          { server, code: "cancelled" },
        );
      }
      if (task.status !== "working") break;
      const wait = Math.min(
        MAX_POLL_MS,
        Math.max(MIN_POLL_MS, task.pollInterval ?? DEFAULT_POLL_MS),
      );
      await sleep(wait, signal);
      task = readTask(await host.send("tasks/get", { taskId: task.taskId }, signal, false), server);
    }
    // completed, failed, or input_required: the result stream carries the server's requests.
    return await host.send("tasks/result", { taskId: task.taskId }, signal, true);
  } catch (error) {
    if (signal.aborted) {
      const controller = new AbortController();
      host.send("tasks/cancel", { taskId: task.taskId }, controller.signal, false).catch((e) =>
        host.log(`${server}: tasks/cancel failed (${(e as Error)?.name ?? "error"})`)
      );
    }
    throw error;
  }
}
