// Shared bits of the HTTP transport tests: a prepared server, the initialize
// handshake done by hand, a fetch that records what went over the wire, and a
// check that no secret leaked into an error (message, String(), cause chain).
import assert from "node:assert/strict";
import type { PreparedServer } from "../../lib/mcp/policy/prepare.ts";
import { prepareServer } from "../../lib/mcp/policy/prepare.ts";
import type { McpTransport } from "../../lib/mcp/transport/interface.ts";
import { createStreamableHttpTransport } from "../../lib/mcp/transport/streamable_http.ts";
import type { HttpTransportOptions } from "../../lib/mcp/transport/http_options.ts";
import { test } from "node:test";
import { type FaultServer, startFaultServer } from "./_fault_server.ts";
import type {
  JsonRpcRequest,
  JsonRpcResponse,
  McpServerConfig,
} from "../../lib/mcp/protocol/types.ts";
import { within } from "../_wait.ts";

/** A prepared HTTP server config. */
export function server(url: string, extra: Partial<McpServerConfig> = {}): PreparedServer {
  return prepareServer({ name: "test", url, ...extra });
}

/** A request with the given id. */
export function rpc(id: number, method: string, params?: Record<string, unknown>): JsonRpcRequest {
  return { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) };
}

/** `initialize`, `setProtocolVersion`, `notifications/initialized`, by hand. */
export async function handshake(
  transport: McpTransport,
  protocolVersion = "2025-11-25",
  timeoutMs = 5_000,
): Promise<Record<string, unknown>> {
  const answer = await transport.request(
    rpc(0, "initialize", {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: "skillmux-test", version: "0" },
    }),
    { timeoutMs, idempotent: true },
  );
  const result = resultOf(answer);
  transport.setProtocolVersion(String(result.protocolVersion));
  await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" }, { timeoutMs });
  return result;
}

/** The result of a response, or a failed assertion. */
export function resultOf(response: JsonRpcResponse): Record<string, unknown> {
  assert.ok("result" in response, `expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

/** One request seen by {@linkcode recordingFetch}. */
export interface Sent {
  method: string;
  url: string;
  headers: Headers;
}

/** A fetch that records requests, and the text of every response body as the transport reads it. */
export function recordingFetch(): { fetch: typeof fetch; sent: Sent[]; bodies: string[] } {
  const sent: Sent[] = [];
  const bodies: string[] = [];
  const wrapped = async (input: URL | Request | string, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? "GET",
      url: String(input),
      headers: new Headers(init?.headers),
    });
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const index = bodies.push("") - 1;
    const decoder = new TextDecoder();
    const seen = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bodies[index] += decoder.decode(chunk, { stream: true });
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(seen, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return { fetch: wrapped as typeof fetch, sent, bodies };
}

/** Assert that `secrets` appear nowhere in `error`, its String(), stack or cause chain. */
export function assertNoSecrets(error: unknown, secrets: string[]): void {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 8; depth++) {
    const texts = current instanceof Error
      ? [current.message, String(current), current.stack ?? "", JSON.stringify(current)]
      : [String(current)];
    for (const text of texts) {
      for (const secret of secrets) {
        assert.ok(!text.includes(secret), `secret leaked: ${text.slice(0, 300)}`);
      }
    }
    current = current instanceof Error ? current.cause : undefined;
  }
}

/** Settle `promise` and return its rejection (fails if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  assert.fail("expected a rejection");
}

/** What a {@linkcode faultTest} body gets: a fresh fault server and a transport to it. */
export interface Rig {
  fault: FaultServer;
  transport: McpTransport;
  logs: string[];
  /** The first log line matching `pattern`, as soon as it is written (fails after `ms`). */
  logged(pattern: RegExp, ms?: number): Promise<string>;
}

/** Shared setup of a {@linkcode faultTest} file: the server config and secrets to check logs for. */
export interface RigSetup {
  config?: Partial<McpServerConfig>;
  defaults?: HttpTransportOptions;
  secrets?: string[];
}

/**
 * A `faultTest(name, options, body)` for one test file: each test gets its own fault server and a
 * Streamable HTTP transport (short retry delay, logs captured), both closed afterwards; when
 * `secrets` are given, no log line may contain one.
 */
export function faultTests(
  setup: RigSetup,
): (name: string, options: HttpTransportOptions, body: (rig: Rig) => Promise<void>) => void {
  return (name, options, body) => {
    test(name, async () => {
      const fault = await startFaultServer();
      const logs: string[] = [];
      const waiters = new Set<(line: string) => void>();
      const transport = createStreamableHttpTransport(server(fault.url, setup.config), {
        retryDelayMs: 5,
        ...setup.defaults,
        log: (line) => {
          logs.push(line);
          for (const waiter of waiters) waiter(line);
        },
        ...options,
      });
      const logged = (pattern: RegExp, ms = 10_000) => {
        const seen = logs.find((line) => pattern.test(line));
        if (seen !== undefined) return Promise.resolve(seen);
        let waiter!: (line: string) => void;
        const line = new Promise<string>((resolve) => {
          waiter = (line) => pattern.test(line) && resolve(line);
          waiters.add(waiter);
        });
        return within(line, ms, `a log line matching ${pattern}`).finally(() =>
          waiters.delete(waiter)
        );
      };
      try {
        await body({ fault, transport, logs, logged });
      } finally {
        await transport.close();
        await fault.close();
        for (const line of logs) assertNoSecrets(line, setup.secrets ?? []);
      }
    });
  };
}
