// Private: the client as a task receiver (MCP 2025-11-25, SEP-1686). A server may send an
// elicitation or sampling request with `task` (when the client declared
// `tasks.requests.elicitation.create` / `sampling.createMessage`): the client answers at once with
// a task, runs the host's handler in the background, and answers the server's `tasks/get`,
// `tasks/result`, `tasks/list` and `tasks/cancel` about it. Finished tasks are dropped after
// their ttl (at most 10 minutes); at most 100 are kept.

import { RpcError } from "../protocol/errors.ts";
import type { TaskInfo } from "./client_types.ts";

type Result = Record<string, unknown>;

const MAX_TASKS = 100;
const MAX_TTL_MS = 10 * 60_000;
const RELATED = "io.modelcontextprotocol/related-task";

interface Entry {
  task: TaskInfo;
  result: Promise<Result>;
}

/** Which task-augmented requests the client takes, for the `tasks` capability. */
export function taskCapability(capabilities: Record<string, unknown>): Record<string, unknown> {
  const requests: Record<string, unknown> = {};
  if (capabilities.elicitation) requests.elicitation = { create: {} };
  if (capabilities.sampling) requests.sampling = { createMessage: {} };
  return { list: {}, cancel: {}, ...(Object.keys(requests).length ? { requests } : {}) };
}

/** The tasks one connection runs for its server. */
export class ClientTasks {
  readonly #tasks = new Map<string, Entry>();
  readonly #server: string;

  constructor(server: string) {
    this.#server = server;
  }

  /** Start `run` as a task; resolves with the `CreateTaskResult`. */
  create(method: string, ttl: unknown, run: () => Promise<Result>): Result {
    const now = new Date().toISOString();
    const ttlMs = typeof ttl === "number" && ttl > 0 ? Math.min(ttl, MAX_TTL_MS) : MAX_TTL_MS;
    const task: TaskInfo = {
      taskId: crypto.randomUUID(),
      status: method === "elicitation/create" ? "input_required" : "working",
      ttl: ttlMs,
      createdAt: now,
      lastUpdatedAt: now,
      pollInterval: 500,
    };
    const settle = (status: "completed" | "failed", message?: string) => {
      if (task.status === "cancelled") return;
      task.status = status;
      if (message !== undefined) task.statusMessage = message.slice(0, 200);
      task.lastUpdatedAt = new Date().toISOString();
      const timer = setTimeout(() => this.#tasks.delete(task.taskId), ttlMs);
      (timer as { unref?: () => void }).unref?.();
    };
    const result = run();
    result.then(() => settle("completed"), (error) => settle("failed", String(error?.message)));
    result.catch(() => {});
    if (this.#tasks.size >= MAX_TASKS) this.#tasks.delete(this.#tasks.keys().next().value!);
    this.#tasks.set(task.taskId, { task, result });
    return { task: { ...task } };
  }

  /** Answer `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel`. */
  async answer(method: string, params: Result): Promise<Result> {
    if (method === "tasks/list") return { tasks: [...this.#tasks.values()].map((e) => e.task) };
    const entry = this.#tasks.get(String(params.taskId));
    if (entry === undefined) {
      throw new RpcError(-32602, `Unknown task: ${String(params.taskId).slice(0, 80)}`, undefined, {
        server: this.#server,
      });
    }
    if (method === "tasks/get") return { ...entry.task };
    if (method === "tasks/cancel") {
      if (["completed", "failed", "cancelled"].includes(entry.task.status)) {
        throw new RpcError(-32602, `Task ${entry.task.taskId} already ended`, undefined, {
          server: this.#server,
        });
      }
      entry.task.status = "cancelled";
      entry.task.lastUpdatedAt = new Date().toISOString();
      return { ...entry.task };
    }
    const result = await entry.result;
    const meta = (result._meta ?? {}) as Result;
    return { ...result, _meta: { ...meta, [RELATED]: { taskId: entry.task.taskId } } };
  }
}
