// The CLI as a child process in a pseudo-terminal (python3's `pty` module, see _pty.py): stdin,
// stdout and stderr are a terminal, as when a person runs it, and the test types as they would.
import { execFile } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { command } from "./_helpers.ts";

const DRIVER = fileURLToPath(new URL("./_pty.py", import.meta.url));

/** One step: wait for `expect` (a regular expression) in the output, then type `send`. */
export interface PtyStep {
  expect: string;
  send?: string;
  delay?: number;
}

/** What the program wrote to its terminal, its exit code, and the step that never came. */
export interface PtyResult {
  code: number | null;
  output: string;
  missed: string | null;
}

/** Run `skillmux <argv>` in a terminal, typing `steps`. */
export function inTerminal(
  argv: string[],
  steps: PtyStep[],
  env: Record<string, string>,
): Promise<PtyResult> {
  const [file, args] = command(argv);
  const full = { PATH: process.env.PATH ?? "", TERM: "xterm", ...env };
  return new Promise((done, fail) => {
    execFile(
      "python3",
      [DRIVER, JSON.stringify([file, ...args]), JSON.stringify(steps), JSON.stringify(full)],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return fail(new Error(`${error.message}\n${stderr}`));
        done(JSON.parse(String(stdout)) as PtyResult);
      },
    );
  });
}

/**
 * `inTerminal` with a plain terminal (`TERM=dumb`) and one answer per prompt: each
 * `answers[i][1]` is typed, with Enter, once `answers[i][0]` appears; `answered` counts the
 * prompts that came.
 */
export async function onTerminal(
  argv: string[],
  env: Record<string, string>,
  answers: Array<[string, string]>,
): Promise<PtyResult & { answered: number }> {
  const steps = answers.map(([expect, answer]) => ({ expect, send: `${answer}\r` }));
  const run = await inTerminal(argv, steps, { TERM: "dumb", ...env });
  const missed = run.missed === null ? steps.length : answers.findIndex(([e]) => e === run.missed);
  return { ...run, answered: missed };
}
