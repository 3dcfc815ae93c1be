// Helpers for the CLI tests: run `skillmux` in-process or as a subprocess of the current runtime.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { run } from "../../lib/cli/main.ts";
import { deadUrl } from "../_closed_port.ts";

export const ROOT: string = fileURLToPath(new URL("../../", import.meta.url));
export const MAIN: string = join(ROOT, "lib/cli/main.ts");
export const IS_DENO: boolean = "Deno" in globalThis;
/** A server URL nothing listens on (a port allocated and closed). */
export const DEAD: string = await deadUrl();

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh temporary home; `env` points every folder into it. */
export async function tempHome(): Promise<
  { dir: string; env: Record<string, string>; close(): Promise<void> }
> {
  const dir = await mkdtemp(join(tmpdir(), "skillmux-cli-"));
  const env = {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    NO_COLOR: "1",
  };
  return { dir, env, close: () => rm(dir, { recursive: true, force: true }) };
}

/** `run()` in-process with captured output; `onStdout` sees the output as it comes. */
export async function cli(
  argv: string[],
  env: Record<string, string | undefined>,
  extra: { color?: boolean; signal?: AbortSignal; onStdout?: (text: string) => void } = {},
): Promise<Result> {
  const { onStdout, ...options } = extra;
  let stdout = "";
  let stderr = "";
  const code = await run(argv, {
    stdout: (t) => {
      stdout += t;
      onStdout?.(t);
    },
    stderr: (t) => (stderr += t),
    env,
    ...options,
  });
  return { code, stdout, stderr };
}

/** The command line that runs the CLI under the current runtime. */
export function command(argv: string[]): [string, string[]] {
  return [
    process.execPath,
    IS_DENO ? ["run", "-A", MAIN, ...argv] : ["--import", "tsx", MAIN, ...argv],
  ];
}

/** The CLI as a real subprocess of the current runtime. */
export function sub(argv: string[], env: Record<string, string>): Promise<Result> {
  const [file, args] = command(argv);
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/**
 * The CLI as a subprocess on a pseudo-terminal (python3's `pty`), answering each prompt that
 * matches `answers[i][0]` with `answers[i][1]`: what a person typing sees, echo included.
 */
export function onTerminal(
  argv: string[],
  env: Record<string, string>,
  answers: Array<[string, string]>,
): Promise<{ code: number; output: string; answered: number }> {
  const [file, args] = command(argv);
  return new Promise((done, fail) => {
    execFile(
      "python3",
      [join(ROOT, "test/cli/_pty.py"), JSON.stringify([file, ...args]), JSON.stringify(answers)],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? "", TERM: "dumb", ...env }, timeout: 150_000 },
      (error, stdout) => {
        try {
          done(JSON.parse(String(stdout)));
        } catch {
          fail(error ?? new Error(`no answer from the pty helper: ${stdout}`));
        }
      },
    );
  });
}
