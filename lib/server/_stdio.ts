// Private: the skills server over stdio (newline-delimited JSON-RPC on stdin/stdout, the SDK's
// StdioServerTransport). Nothing but protocol goes to stdout; `log` lines are the caller's (stderr).
// A folder is looked at every second (its cheap fingerprint; re-read only when it changed), and
// when the served skills changed the host hears `notifications/resources/list_changed`.

import process from "node:process";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { SkillCatalog } from "./_catalog.ts";
import { buildMcpServer } from "./_mcp.ts";
import type { ServeSkillsOptions, SkillsServer } from "./types.ts";

/** How often a served folder is looked at, in milliseconds. */
const POLL_MS = 1_000;

/** Serve on this process's stdin/stdout; `closed` settles when stdin ends or `close()` is called. */
export async function serveStdio(options: ServeSkillsOptions): Promise<SkillsServer> {
  const catalog = new SkillCatalog(options);
  const mcp = buildMcpServer(catalog);
  let timer: ReturnType<typeof setInterval> | undefined;
  const served = await onStdio(mcp, options.log, async () => {
    clearInterval(timer);
    await mcp.close().catch(() => {});
  });
  if (options.folder !== undefined) {
    let seen = await catalog.snapshot().then((s) => s.version, () => "");
    let looking = false;
    timer = setInterval(async () => {
      if (looking) return;
      looking = true;
      try {
        const now = (await catalog.snapshot()).version;
        if (now === seen) return;
        seen = now;
        options.log?.("skills changed: telling the host (notifications/resources/list_changed)");
        await mcp.server.sendResourceListChanged().catch(() => {});
      } catch {
        // An unreadable folder is looked at again on the next tick.
      } finally {
        looking = false;
      }
    }, POLL_MS);
    (timer as { unref?: () => void }).unref?.();
  }
  options.log?.("serving skills on stdio");
  return { url: "stdio:", skills: () => catalog.served(), ...served };
}

/**
 * Connect `mcp` to this process's stdin/stdout. Ends when stdin ends or `close()` is called:
 * `stop` runs once, then stdin is destroyed so the event loop can end.
 */
export async function onStdio(
  mcp: { connect(transport: StdioServerTransport): Promise<void> },
  log: ((line: string) => void) | undefined,
  stop: () => Promise<void>,
): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  let closing: Promise<void> | undefined;
  let finished!: () => void;
  const closed = new Promise<void>((done) => (finished = done));
  const close = (): Promise<void> => {
    closing ??= (async () => {
      process.stdin.off("end", onEnd);
      process.stdin.off("close", onEnd);
      await stop();
      // The SDK pauses stdin on close; destroy it so the event loop can end.
      process.stdin.destroy();
      finished();
    })();
    return closing;
  };
  const onEnd = () => {
    log?.("stdin closed");
    void close();
  };
  process.stdin.on("end", onEnd);
  process.stdin.on("close", onEnd);
  transport.onerror = (error: Error) => log?.(`stdio: ${error.message}`);
  await mcp.connect(transport);
  return { closed, close };
}
