#!/usr/bin/env node
/**
 * The `skillmux` command (Deno and Node): skills, MCP servers and the skills
 * server from a terminal. Run it as `skillmux <command>`, `deno run -A
 * jsr:@skillmux/core/cli <command>` or `npx -p @skillmux/core skillmux <command>`
 * (the npm package is `@skillmux/core`; `skillmux` on npm is another project); call
 * {@linkcode run} to use it in-process.
 *
 * @example
 * ```ts
 * import { run } from "@skillmux/core/cli";
 * const code = await run(["skill", "show", "samtools"], {
 *   stdout: (text) => console.log(text),
 *   stderr: (text) => console.error(text),
 *   env: { HOME: "/tmp/skillmux-demo" },
 * });
 * console.log(code); // 0
 * ```
 *
 * @module
 */

import { realpathSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { run } from "./run.ts";

export { run } from "./run.ts";
export type { CliIo } from "./run.ts";

/**
 * One line of answer from the terminal. Ctrl-C there is the process's SIGINT (a running call is
 * cancelled, anything else ends); Ctrl-D (end of input) or `signal` abandons the question.
 */
async function ask(question: string, options: { signal?: AbortSignal } = {}): Promise<string> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const gone = new Promise<never>((_, reject) => {
    const abandon = (why: string) =>
      reject(new DOMException(`the question was abandoned (${why})`, "AbortError"));
    let interrupted = false;
    // Ctrl-C closes the line too: that close is the interrupt's, not an end of input (reading it
    // as one raced the process's SIGINT handler, and a cancelled call could exit 1, not 130).
    rl.once("close", () => interrupted || abandon("end of input"));
    rl.once("SIGINT", () => {
      interrupted = true;
      process.kill(process.pid, "SIGINT");
      rl.close();
    });
  });
  gone.catch(() => {});
  try {
    return await Promise.race([rl.question(question, { signal: options.signal }), gone]);
  } finally {
    rl.close();
  }
}

/** A secret from the terminal, not echoed: raw mode, read up to Enter (Ctrl-C cancels). */
function askSecret(question: string): Promise<string> {
  const { stdin, stderr } = process;
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = "";
    const done = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return done();
        if (ch === "\u0003") return done(new Error("cancelled (Ctrl-C)"));
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else if (ch >= " ") value += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}

/** Whether this module is the program: `import.meta.main` on Deno, `argv[1]` on Node. */
function isMain(): boolean {
  const main = (import.meta as { main?: boolean }).main;
  if (typeof main === "boolean") return main;
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const env = process.env as Record<string, string | undefined>;
  // A reader that stops early (`skillmux skill list | head -1`) closes the pipe: end quietly, as
  // Unix tools do, rather than with an unhandled EPIPE error.
  process.stdout.on("error", (error: Error & { code?: string }) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  process.exitCode = await run(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env,
    color: process.stdout.isTTY === true && !env.NO_COLOR,
    stderrIsTerminal: process.stderr.isTTY === true,
    ask: process.stdin.isTTY === true && process.stderr.isTTY === true ? ask : undefined,
    askSecret: process.stdin.isTTY === true && process.stderr.isTTY === true
      ? askSecret
      : undefined,
  });
}
