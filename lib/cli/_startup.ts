// Private: what the CLI shows while a stdio server starts. A server that has not answered after two
// seconds (`npx -y` fetching a package, a JVM warming up) is announced, and its stderr so far and
// until it answers is shown, dimmed and prefixed with its name; a fast start shows nothing.

import type { StdioStartupEvent } from "../mcp/transport/stdio.ts";

/** Where the reporter writes: stderr lines, dimmed. */
interface Writer {
  err(line: string): void;
  paint: { dim(text: string): string };
}

/** How long a start may take before the CLI says it is starting and shows its stderr. */
export const SLOW_START_MS = 2_000;

interface Starting {
  timer?: ReturnType<typeof setTimeout>;
  lines: string[];
  shown: boolean;
  at: number;
}

/** An `onStartup` callback for `stdio()` that reports slow starts on `ctx`'s stderr. */
export function startupReporter(
  ctx: Writer,
  slowMs: number = SLOW_START_MS,
): (event: StdioStartupEvent) => void {
  // By process: a registry may start the same server twice (ping, then call).
  const starting = new Map<string, Starting>();
  const say = (server: string, line: string) => ctx.err(ctx.paint.dim(`  ${server} │ ${line}`));
  return (event) => {
    const key = event.server;
    if (event.type === "spawned") {
      const state: Starting = { lines: [], shown: false, at: Date.now() };
      state.timer = setTimeout(() => {
        state.shown = true;
        ctx.err(ctx.paint.dim(`Starting "${key}"… (waiting for its first answer; its output:)`));
        for (const line of state.lines) say(key, line);
        state.lines = [];
      }, slowMs);
      (state.timer as { unref?: () => void }).unref?.();
      starting.set(key, state);
      return;
    }
    const state = starting.get(key);
    if (state === undefined) return;
    if (event.type === "stderr") {
      if (state.shown) say(key, event.line);
      else state.lines.push(event.line);
      return;
    }
    clearTimeout(state.timer);
    starting.delete(key);
    if (state.shown && event.type === "started") {
      ctx.err(ctx.paint.dim(`"${key}" started in ${(event.ms / 1000).toFixed(1)} s`));
    }
  };
}
