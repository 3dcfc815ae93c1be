// Private: a host's `tools/call` proxied to the upstream server behind a catalog id: the host's
// progress token gets the upstream's progress, the host's cancellation (its request's signal,
// aborted by `notifications/cancelled`) cancels the upstream call (which sends its own
// `notifications/cancelled`), tools that require tasks run as tasks (their status messages
// arrive as progress). A failure is an error result naming the server, never a thrown error,
// and a server that needs sign-in says so, pointing at `skillmux mcp login <name>`.

import type { CallToolResult, Tool } from "../mcp/protocol/types.ts";
import type { GatewayView } from "./_gateway_view.ts";
import { isBroken } from "./_gateway_pool.ts";

/** What the SDK hands a request handler (the parts used here). */
export interface HandlerExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number; [key: string]: unknown };
  sendNotification(notification: {
    method: "notifications/progress";
    params: Record<string, unknown>;
  }): Promise<void>;
}

/** Settings of every proxied call. */
export interface CallSettings {
  callTimeoutMs?: number;
  log?: (line: string) => void;
  /** The command that approves held tools, named by `find_tools` (default `skillmux approve`). */
  approveCommand?: string;
}

const failure = (text: string): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

/** Whether `error` says the server needs (another) OAuth sign-in. */
function needsSignIn(error: unknown): boolean {
  const e = error as { name?: string; code?: string; status?: number } | undefined;
  if (e?.name === "OAuthError") {
    return e.code === "sign_in_required" || e.code === "reauth_required";
  }
  return e?.name === "HttpError" && e.status === 401;
}

/** The answer to a host's call of `id` (an error result for any failure but a cancellation). */
export async function proxyCall(
  view: GatewayView,
  id: string,
  args: Record<string, unknown>,
  extra: HandlerExtra,
  settings: CallSettings,
): Promise<CallToolResult> {
  const entry = view.catalog.get(id);
  if (entry === undefined || entry.kind !== "tool") {
    const held = view.catalog.held.find((h) => h.entry.id === id);
    if (held !== undefined) {
      return failure(
        `Tool "${id}" waits for approval (${
          held.entry.approval === "changed" ? "changed since approved" : "new"
        }): run ${settings.approveCommand ?? "skillmux approve"} ${id}`,
      );
    }
    return failure(
      `There is no approved tool "${id.slice(0, 80)}" here; use one of the tools listed`,
    );
  }
  const server = entry.server ?? "?";
  const token = extra._meta?.progressToken;
  const progress = (params: Record<string, unknown>) => {
    if (token === undefined) return;
    extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken: token, ...params },
    })
      .catch(() => {});
  };
  let steps = 0;
  const tool = view.catalog.toolTarget(id)?.tool as Tool & { execution?: { taskSupport?: string } };
  const task = tool?.execution?.taskSupport === "required";
  let client;
  try {
    client = await view.pool.client(entry, extra.signal);
    return await client.callTool(entry.name, args, {
      signal: extra.signal,
      timeoutMs: settings.callTimeoutMs,
      onProgress: token === undefined ? undefined : (p) => progress({ ...p }),
      ...(task
        ? {
          task: true,
          onTaskStatus: (info) =>
            progress({ progress: ++steps, message: info.statusMessage ?? info.status }),
        }
        : {}),
    });
  } catch (error) {
    if (extra.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (isBroken(error)) view.pool.evict(server, client);
    settings.log?.(`${id}: ${(error as Error)?.name ?? "error"} from ${server}`);
    if (needsSignIn(error)) {
      return failure(
        `Server "${server}" needs sign-in (OAuth) before "${id}" can run: ` +
          `run skillmux mcp login ${server}`,
      );
    }
    return failure(`"${id}" failed on server "${server}": ${message.slice(0, 1_000)}`);
  }
}
