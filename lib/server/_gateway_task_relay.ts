// Private: the tasks the gateway relays for one view (one user), by the id the host was given (a
// UUID of the gateway's, never the upstream's), and whether a server takes task-augmented calls.
// See _gateway_tasks.ts.

import { randomUUID } from "node:crypto";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpClient } from "../mcp/client/client_types.ts";
import type { ServerCapabilities } from "../mcp/protocol/types.ts";

/** Most tasks remembered per view (the oldest are forgotten past it). */
const MAX_TASKS = 1_000;
/** Most tasks `tasks/list` asks their servers about. */
const MAX_LISTED = 100;

/** Whether a server's capabilities take task-augmented `tools/call`. */
export function takesToolTasks(capabilities: ServerCapabilities | undefined): boolean {
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } })
    ?.tasks;
  return tasks?.requests?.tools?.call !== undefined;
}

/** One relayed task: the host's id, and where it lives upstream. */
export interface Relayed {
  server: string;
  upstream: string;
  client: McpClient;
}

/** The tasks relayed for one view (one user), by the host's id. */
export class TaskRelay {
  readonly #tasks = new Map<string, Relayed>();

  /** Remember an upstream task; returns the id the host gets. */
  add(server: string, upstream: string, client: McpClient): string {
    const id = randomUUID();
    this.#tasks.set(id, { server, upstream, client });
    if (this.#tasks.size > MAX_TASKS) this.#tasks.delete(this.#tasks.keys().next().value!);
    return id;
  }

  /** The task the host calls `id`, or an `InvalidParams` error naming it. */
  get(id: unknown): Relayed {
    const found = typeof id === "string" ? this.#tasks.get(id) : undefined;
    if (found === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown task: ${String(id).slice(0, 80)}`);
    }
    return found;
  }

  /** The most recent tasks, newest last. */
  recent(): Array<[string, Relayed]> {
    return [...this.#tasks].slice(-MAX_LISTED);
  }

  /** Forget `id` (its server no longer knows it). */
  forget(id: string): void {
    this.#tasks.delete(id);
  }
}
