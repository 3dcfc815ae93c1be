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
/** How the CLI's hints say to run it when it runs from this clone (see lib/cli/_invocation.ts). */
export const INVOCATION: string = IS_DENO ? `deno run -A ${MAIN}` : `${ROOT}bin/skillmux.mjs`;
/** `INVOCATION` as a pattern to put in a RegExp. */
export const INVOKE: string = INVOCATION.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
