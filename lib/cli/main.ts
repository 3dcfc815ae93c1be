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
    rl.once("close", () => abandon("end of input"));
    rl.once("SIGINT", () => {
      rl.close();
      process.kill(process.pid, "SIGINT");
    });
  });
  gone.catch(() => {});
  try {
    return await Promise.race([rl.question(question, { signal: options.signal }), gone]);
  } finally {
    rl.close();
  }
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
  });
}
