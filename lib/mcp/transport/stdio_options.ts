/**
 * The stdio transport's options and shape: the start-up allowance, the shutdown waits, the
 * environment the child inherits, what it reports while it starts, and the transport's process id
 * and stderr tail.
 *
 * @module
 */

import type { McpTransport } from "./interface.ts";

/**
 * How long a stdio server may take to write its first line (its first answer) after it is
 * started, by default: 60 s. `npx -y` and `uvx` fetch a package on first use, which takes many
 * seconds; the request timeouts (`timeoutMs`) count only once the server has started.
 *
 * @example
 * ```ts
 * import { DEFAULT_STARTUP_TIMEOUT_MS } from "@skillmux/core/stdio";
 * console.log(DEFAULT_STARTUP_TIMEOUT_MS); // 60000
 * ```
 */
export const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;

/**
 * On close, how long a stdio server may take to exit after its stdin is closed before it is sent
 * SIGTERM, by default: 2 s (the MCP spec's shutdown: close stdin, wait, SIGTERM, wait, SIGKILL;
 * the official SDK waits 2 s too).
 *
 * @example
 * ```ts
 * import { DEFAULT_CLOSE_TIMEOUT_MS } from "@skillmux/core/stdio";
 * console.log(DEFAULT_CLOSE_TIMEOUT_MS); // 2000
 * ```
 */
export const DEFAULT_CLOSE_TIMEOUT_MS = 2_000;

/**
 * How long a stdio server may take to exit after SIGTERM before it is sent SIGKILL, by default:
 * 2 s.
 *
 * @example
 * ```ts
 * import { DEFAULT_KILL_TIMEOUT_MS } from "@skillmux/core/stdio";
 * console.log(DEFAULT_KILL_TIMEOUT_MS); // 2000
 * ```
 */
export const DEFAULT_KILL_TIMEOUT_MS = 2_000;

/**
 * What a stdio server does while it starts: `spawned` (the process is running), `stderr` (a line
 * it wrote to stderr before its first answer, secrets redacted: what `npx -y` or `uvx` print while
 * they fetch), then `started` (its first line on stdout, `ms` after it was spawned) or `failed`
 * (it exited, could not be spawned, or did not start within its allowance; `error` says which).
 */
export type StdioStartupEvent =
  | { type: "spawned"; server: string; pid: number | undefined }
  | { type: "stderr"; server: string; line: string }
  | { type: "started"; server: string; pid: number | undefined; ms: number }
  | { type: "failed"; server: string; error: Error };

/** Options of `createStdioTransport` and `stdio()`. */
export interface StdioTransportOptions {
  /** The longest stdout line accepted, in bytes; a longer one is a `ProtocolError` and kills the child. Default 4 MiB. */
  maxLineBytes?: number;
  /** How many stderr lines to keep for error messages. Default 50. */
  stderrLines?: number;
  /**
   * How long the child may take to write its first line to stdout after it is spawned, in
   * milliseconds (default {@linkcode DEFAULT_STARTUP_TIMEOUT_MS}, 60 s). Requests sent before it
   * has started wait under this allowance, and their own timeouts start when it has; a child
   * that does not start in time is stopped, and every request rejects with a `TimeoutError`
   * that quotes its stderr. The server's `startupTimeoutMs` wins over this.
   */
  startupTimeoutMs?: number;
  /**
   * On close: how long the child may take to exit after its stdin is closed, before SIGTERM, in
   * milliseconds (default {@linkcode DEFAULT_CLOSE_TIMEOUT_MS}). The server's `closeTimeoutMs`
   * wins over this.
   */
  closeTimeoutMs?: number;
  /**
   * After SIGTERM (on close, or when the child failed), how long before SIGKILL, in
   * milliseconds (default {@linkcode DEFAULT_KILL_TIMEOUT_MS}). The server's `killTimeoutMs`
   * wins over this.
   */
  killTimeoutMs?: number;
  /**
   * Which variables of this process's environment the child inherits, before
   * the server's `env` is added: `minimal` (default: `PATH`, `HOME`, `USER`,
   * locale, temp dir and their Windows equivalents, see `MINIMAL_ENV`, so API
   * keys in the parent environment do not leak to every server), `all`, or a
   * list of extra names to inherit on top of the minimal set.
   */
  inheritEnv?: "minimal" | "all" | readonly string[];
  /** Receives diagnostics: non-JSON stdout lines (banners), unknown response ids, and the like. Secrets are redacted. */
  onDiagnostic?: (message: string) => void;
  /**
   * Receives what the child does while it starts (see {@linkcode StdioStartupEvent}): a CLI shows
   * a slow start's stderr this way. A callback that throws is ignored.
   */
  onStartup?: (event: StdioStartupEvent) => void;
}

/** A stdio transport, with the child's process id and stderr tail for diagnosis. */
export interface StdioTransport extends McpTransport {
  /** The child's process id, once started (`undefined` before the first message or when spawning failed). */
  readonly pid: number | undefined;
  /** The last lines the child wrote to stderr, secrets redacted. */
  stderrTail(): string[];
  /**
   * Whether the child has started: it has written its first line to stdout. Until then requests
   * wait under the start-up allowance (`startupTimeoutMs`) instead of their own timeouts.
   */
  readonly started: boolean;
}
