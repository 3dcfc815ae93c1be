// Private: keep a notification stream open for a client — the GET stream of a 2025 Streamable
// HTTP server (when it offers one) or `subscriptions/listen` on a 2026-07-28 server — and reopen
// it with backoff (the server's `retry` hint first) until the client closes. What arrives goes to
// the transport's `onNotification` and `onRequest` like anything else the server sends.

import { isMcpError } from "../protocol/errors.ts";
import { sleep } from "../transport/_retry.ts";
import type { ProtocolSession } from "./_protocol.ts";
import type { McpTransport } from "../transport/interface.ts";

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
const MIN_HEALTHY_MS = 5_000;

/** The wait before reopening after `failures` failures in a row. */
function backoff(failures: number): number {
  const ceiling = Math.min(FIRST_DELAY_MS * 2 ** failures, MAX_DELAY_MS);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** One stream until it ends: `stop` when the server offers none, else `again` with a hint. */
async function once(
  transport: McpTransport,
  session: ProtocolSession,
  signal: AbortSignal,
  onOpen: () => void,
): Promise<{ stop: boolean; retryMs?: number }> {
  if (session.era === "legacy") {
    if (transport.listen === undefined) return { stop: true };
    const { outcome, retryMs } = await transport.listen(signal, onOpen);
    return { stop: outcome === "unsupported", retryMs };
  }
  try {
    await session.request("subscriptions/listen", {
      notifications: {
        toolsListChanged: true,
        resourcesListChanged: true,
        promptsListChanged: true,
      },
    }, { signal, longLived: true, timeoutMs: Infinity });
    return { stop: false };
  } catch (error) {
    if (isMcpError(error, "RpcError") && error.rpcCode === -32601) return { stop: true };
    throw error;
  }
}

/**
 * Listen until `signal` aborts; `log` hears why a stream ended. `settled` is called once: when
 * the first stream is open, or when the first attempt ended without one.
 */
export async function listenLoop(
  name: string,
  transport: McpTransport,
  session: ProtocolSession,
  signal: AbortSignal,
  log: (line: string) => void,
  settled: () => void = () => {},
): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    let wait: number;
    const started = Date.now();
    try {
      const { stop, retryMs } = await once(transport, session, signal, settled);
      settled();
      if (stop) return log(`${name}: the server offers no notification stream`);
      // A stream that ends at once is no better than a failure: back off all the same.
      failures = Date.now() - started < MIN_HEALTHY_MS ? failures + 1 : 0;
      wait = retryMs ?? backoff(failures);
    } catch (error) {
      settled();
      if (signal.aborted) return;
      failures++;
      wait = backoff(failures);
      log(`${name}: the notification stream failed (${(error as Error).name}); reopening`);
    }
    await sleep(wait, signal).catch(() => {});
  }
}
