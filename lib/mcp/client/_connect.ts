// Private: what `connect()` (client.ts) does, loaded with the first connection — the policy check,
// the era negotiation (2026-07-28 discovery, `initialize`, the legacy SSE fallback), the
// client and its notification stream. Pages that never connect never download it.

import { isMcpError } from "../protocol/errors.ts";
import {
  checkConnectTarget,
  type PreparedServer,
  prepareServer,
  redact,
} from "../policy/prepare.ts";
import { checkUrl } from "../policy/url.ts";
import { Client } from "./_client.ts";
import { withDeadline } from "./_deadline.ts";
import { CallClock } from "./_watchdog.ts";
import { ClientTasks } from "./_client_tasks.ts";
import type { ClientCapabilities, ClientHandlers } from "./client_handlers.ts";
import {
  forgetHint,
  knownHint,
  negotiate,
  type NegotiateContext,
  rememberHint,
} from "./_negotiate.ts";
import type { ConnectOptions } from "./connect_options.ts";
import type { McpClient } from "./client_types.ts";
import type { McpTransport } from "../transport/interface.ts";
import type { ProtocolSession } from "./_protocol.ts";
import type { Implementation, McpServerConfig } from "../protocol/types.ts";

/** The limits `connect()` resolved: the options' or the defaults. */
export interface ConnectLimits {
  timeoutMs: number;
  callTimeoutMs: number;
  maxTotalMs: number;
  maxPages: number;
}

const CLIENT_INFO: Implementation = { name: "skillmux", version: "0.1.0" };

/** The capabilities to declare: the given ones, else one per handler. */
function declaredCapabilities(
  handlers: ClientHandlers | undefined,
  given: ClientCapabilities | undefined,
): ClientCapabilities {
  if (given !== undefined) return given;
  const caps: ClientCapabilities = {};
  if (handlers?.elicitation) caps.elicitation = {};
  if (handlers?.sampling) caps.sampling = {};
  if (handlers?.roots) caps.roots = {};
  return caps;
}

/** Connect to `server` (see `connect()`). */
export async function connectNow(
  server: McpServerConfig,
  options: ConnectOptions,
  limits: ConnectLimits,
): Promise<McpClient> {
  const prepared = prepareServer(server, options);
  const name = prepared.name;
  if (options.auth !== undefined && prepared.url !== undefined) {
    // OAuth code (and oauth4webapi) loads only for servers that use it.
    const { OAuthSession, createAuthFetch } = await import("../auth/_lazy.ts");
    const session = new OAuthSession(prepared.url, options.auth, {
      server: name,
      fetch: options.http?.fetch,
      // Metadata and authorization-server URLs come from the server: the URL policy applies,
      // to the first URL and to every redirect hop.
      checkUrl: async (url) => {
        checkUrl(url, prepared.urlPolicy, "OAuth URL", name);
        await checkConnectTarget(url, prepared.urlPolicy, { server: name });
      },
      // Tokens come after prepare time and change on refresh: the session adds them here.
      secrets: prepared.secrets,
    });
    options = {
      ...options,
      http: { ...options.http, fetch: createAuthFetch(session, options.http?.fetch) },
    };
  }
  const { timeoutMs } = limits;
  // Every log line of this connection (client, session, negotiation, notification stream) may
  // carry text from the server: its secrets are redacted here, in one place.
  const write = options.log;
  const log = (line: string) => write?.(redact(line, prepared.secrets));
  const closing = new AbortController();
  const context = { server: name, signal: closing.signal };
  // Time in a host handler (a person answering a form) does not count against any call's timer.
  const clock = new CallClock();
  // Server requests and notification streams are rare: their code loads when first needed.
  const handle = (method: string, params: Record<string, unknown> | undefined) =>
    clock.hold(async () =>
      (await import("./_inputs.ts")).answerServerRequest(method, params, options.handlers, context)
    );
  // Task-augmented elicitation and sampling (2025-11-25): answered at once with a task, the
  // handler run in the background, and the server's tasks/* requests about it answered.
  const tasks = new ClientTasks(name);
  const answer = (method: string, params: Record<string, unknown> | undefined) => {
    if (method.startsWith("tasks/")) return tasks.answer(method, params ?? {});
    const task = params?.task as { ttl?: unknown } | undefined;
    if (
      typeof task === "object" && task !== null &&
      (method === "elicitation/create" || method === "sampling/createMessage")
    ) {
      const { task: _task, ...rest } = params!;
      return Promise.resolve(tasks.create(method, task.ttl, () => handle(method, rest)));
    }
    return handle(method, params);
  };
  const attempt = (
    target: PreparedServer,
    signal: AbortSignal | undefined,
    opts: ConnectOptions,
  ) => {
    const ctx: NegotiateContext = {
      clientInfo: options.clientInfo ?? CLIENT_INFO,
      capabilities: declaredCapabilities(options.handlers, options.capabilities),
      request: { signal, timeoutMs },
      answer,
      wire(transport: McpTransport) {
        transport.onNotification = options.onNotification;
        transport.onRequest = (request) => answer(request.method, request.params);
        return transport;
      },
    };
    return negotiate(target, opts, ctx);
  };
  // A URL without a path is tried at `/mcp`, then as given (a server mounted at `/`) when `/mcp`
  // is not found; a hint that says the root answered goes straight there.
  const root = prepared.rootUrl;
  const atRoot: PreparedServer | undefined = root && { ...prepared, url: root };
  const connectAt = async (target: PreparedServer, signal: AbortSignal | undefined) => {
    const hinted = knownHint(target, options) !== undefined;
    try {
      return await attempt(target, signal, { ...options, log, signal });
    } catch (error) {
      // A kept hint that no longer holds: forget it and negotiate from scratch, once.
      const mismatch = isMcpError(error, "HttpError") || isMcpError(error, "ProtocolError") ||
        isMcpError(error, "RpcError");
      if (!hinted || signal?.aborted || !mismatch) throw error;
      forgetHint(target);
      return await attempt(target, signal, { ...options, log, signal, hint: undefined });
    }
  };
  const [[transport, session], answered] = await withDeadline(
    options,
    `${name}: connecting`,
    name,
    async (signal): Promise<[[McpTransport, ProtocolSession], PreparedServer]> => {
      const first = atRoot !== undefined && knownHint(prepared, options)?.endpoint === root!.href
        ? atRoot
        : prepared;
      try {
        return [await connectAt(first, signal), first];
      } catch (error) {
        const notFound = isMcpError(error, "HttpError") &&
          (error.status === 404 || error.status === 405);
        if (atRoot === undefined || first === atRoot || signal?.aborted || !notFound) throw error;
        log(`${name}: ${prepared.url!.href} was not found; trying ${root!.href}`);
        return [await connectAt(atRoot, signal), atRoot];
      }
    },
  );
  const client = new Client(name, transport, session, {
    timeoutMs,
    callTimeoutMs: limits.callTimeoutMs,
    maxTotalMs: limits.maxTotalMs,
    clock,
    maxPages: limits.maxPages,
    log,
    stop: () => closing.abort(),
    ...(answered === prepared ? {} : { endpoint: answered.url!.href }),
  });
  rememberHint(prepared, client.hint);
  if (answered !== prepared) rememberHint(answered, client.hint);
  if (options.listen ?? (options.onNotification !== undefined || options.handlers !== undefined)) {
    let settled!: () => void;
    const ready = new Promise<void>((resolve) => (settled = resolve));
    import("./_listen.ts").then(({ listenLoop }) =>
      listenLoop(name, transport, session, closing.signal, log, settled)
    );
    // A 2025 server may send its requests (elicitation, …) on the GET stream alone: with
    // handlers, the stream is open (or known to be absent) before the first call.
    if (options.handlers !== undefined && session.era === "legacy") {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([ready, new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
      clearTimeout(timer);
    }
  }
  return client;
}
