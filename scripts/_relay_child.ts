/**
 * Private: one stdio server process of the relay (scripts/_relay_stdio.ts), started ahead of
 * the session that will use it. It runs in its own process group (`npx` and shell-less wrappers
 * start the real server as a grandchild: stopping the group stops that too), answers newline-
 * delimited JSON-RPC on stdout, and is _ready_ once it answered the relay's own `ping` (which the
 * MCP spec lets a client send before `initialize`): the session's first message is not sent
 * before that, and not later than its start-up allowance. Stopping follows the spec's stdio
 * shutdown: close stdin, wait, SIGTERM (the group), wait, SIGKILL (the group).
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";

/** A message on the child's stdio: one JSON-RPC object. */
export type ChildMessage = Record<string, unknown> & { id?: string | number; method?: string };

/** How a relay child starts and stops. */
export interface ChildOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** How long the program may take to answer the ready `ping` after it is started (ms). */
  startupMs: number;
  /** After closing stdin, before SIGTERM (ms). */
  closeMs: number;
  /** After SIGTERM, before SIGKILL (ms). */
  killMs: number;
}

/** How many stderr lines a start-up error quotes. */
const STDERR_LINES = 12;
let nextProbe = 1;

/**
 * Process groups still running. A child in its own group does not get the terminal's Ctrl-C with
 * npm start, so they are killed when this process exits, whatever way it exits.
 */
const live = new Set<number>();
let hooked = false;
function keep(pid: number | undefined): void {
  if (pid === undefined) return;
  live.add(pid);
  if (hooked) return;
  hooked = true;
  process.on("exit", () => {
    for (const group of live) {
      try {
        process.kill(-group, "SIGKILL");
      } catch { /* gone */ }
    }
  });
}

/** A started stdio server; `ready` settles once it answered the relay's ping (or could not). */
export class RelayChild {
  readonly #child: ChildProcess;
  readonly #options: ChildOptions;
  readonly #stderr: string[] = [];
  readonly #exited: Promise<void>;
  #hasExited = false;
  #failed = false;
  #buffer = "";
  #closing?: Promise<void>;
  /** Resolves when the child answered the ready ping; rejects (with the stderr tail) when not. */
  readonly ready: Promise<void>;
  /** Messages from the child after it is ready (the ready ping's answer is not passed on). */
  onmessage?: (message: ChildMessage) => void;
  /** The child exited (or was stopped). */
  onclose?: () => void;

  constructor(options: ChildOptions) {
    this.#options = options;
    this.#child = spawn(options.command, options.args, {
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // its own process group: see stop()
      shell: false,
      windowsHide: true,
    });
    keep(this.#child.pid);
    this.#exited = new Promise((resolve) => {
      // "close": the child exited and its stdio closed (a grandchild holding them exited too).
      this.#child.once("close", () => {
        this.#hasExited = true;
        resolve();
        this.onclose?.();
      });
    });
    this.#child.stderr!.setEncoding("utf8");
    this.#child.stderr!.on("data", (chunk: string) => {
      this.#stderr.push(...chunk.split("\n").filter((l) => l.trim() !== ""));
      this.#stderr.splice(0, Math.max(0, this.#stderr.length - STDERR_LINES));
    });
    this.#child.stdin!.on("error", () => {}); // EPIPE once it exited: seen as its close
    this.ready = this.#probe();
    this.ready.catch(() => {
      this.#failed = true;
      void this.stop();
    });
  }

  /** The process id (for the relay's log and tests). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether it could not start (exited first, or not ready within its allowance). */
  get failed(): boolean {
    return this.#failed;
  }

  /** Whether it exited. */
  get exited(): boolean {
    return this.#hasExited;
  }

  /** Send `ping` and wait for its answer, the child's exit, or the start-up allowance. */
  #probe(): Promise<void> {
    const id = `relay-ready-${nextProbe++}`;
    const { startupMs } = this.#options;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(this.#failure(`did not answer within its ${startupMs} ms start-up allowance`)),
        startupMs,
      );
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      this.#child.once(
        "error",
        (error) => fail(this.#failure(`could not start (${error.message})`)),
      );
      this.#exited.then(() => {
        const { exitCode, signalCode } = this.#child;
        fail(
          this.#failure(
            signalCode ? `was killed by ${signalCode}` : `exited with code ${exitCode}`,
          ),
        );
      });
      let answered = false;
      this.#child.stdout!.setEncoding("utf8");
      this.#child.stdout!.on("data", (chunk: string) => {
        this.#buffer += chunk;
        let end: number;
        while ((end = this.#buffer.indexOf("\n")) >= 0) {
          const line = this.#buffer.slice(0, end).trim();
          this.#buffer = this.#buffer.slice(end + 1);
          if (line === "") continue;
          let message: ChildMessage;
          try {
            message = JSON.parse(line);
          } catch {
            continue; // a stray log line on stdout
          }
          if (!answered && message.id === id && message.method === undefined) {
            answered = true;
            clearTimeout(timer);
            resolve();
            continue;
          }
          if (answered) this.onmessage?.(message);
        }
      });
      this.#write({ jsonrpc: "2.0", id, method: "ping" });
    });
  }

  #failure(how: string): Error {
    const line = [this.#options.command, ...this.#options.args].join(" ");
    const tail = this.#stderr.length
      ? `\nstderr (last ${this.#stderr.length} lines):\n  ${this.#stderr.join("\n  ")}`
      : "";
    return new Error(`relay: the stdio server "${line}" ${how}${tail}`);
  }

  #write(message: unknown): void {
    if (this.#hasExited || this.#closing) throw new Error("relay: the stdio server ended");
    this.#child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** Send `message` to the child (only once it is ready). */
  async send(message: unknown): Promise<void> {
    await this.ready;
    this.#write(message);
  }

  /** Stop it (close stdin, wait, SIGTERM its group, wait, SIGKILL its group); resolves once it exited. */
  stop(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        if (this.#hasExited) return;
        try {
          this.#child.stdin!.end();
        } catch { /* gone */ }
        if (await this.#exitsWithin(this.#options.closeMs)) return;
        this.#signal("SIGTERM");
        if (await this.#exitsWithin(this.#options.killMs)) return;
        this.#signal("SIGKILL");
        await this.#exited;
      } finally {
        // What the child started and left behind in its group ends with it.
        if (this.#groupAlive()) this.#signal("SIGKILL");
        if (this.#child.pid !== undefined) live.delete(this.#child.pid);
      }
    })();
    return this.#closing;
  }

  async #exitsWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const elapsed = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const done = await Promise.race([this.#exited.then(() => true as const), elapsed]);
    clearTimeout(timer);
    return done;
  }

  #groupAlive(): boolean {
    try {
      return this.#child.pid !== undefined && process.kill(-this.#child.pid, 0);
    } catch {
      return false;
    }
  }

  /** Signal the child's process group (the child and what it started), else the child. */
  #signal(signal: "SIGTERM" | "SIGKILL"): void {
    const pid = this.#child.pid;
    try {
      if (pid !== undefined) return void process.kill(-pid, signal);
    } catch { /* no group: signal the child alone */ }
    try {
      this.#child.kill(signal);
    } catch { /* gone */ }
  }
}
