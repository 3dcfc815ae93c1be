// Test helper: a Deno project in a folder outside the repository that imports skillmux the way a
// JSR user's script does, by the package name: its deno.json maps "@skillmux/core" and every
// subpath to the repository's lib/ entries (per deno.json "exports"), plus the npm: imports the
// package declares. The npm packages come from the repository's node_modules (linked), so no
// registry is contacted.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, symlink, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const ROOT = new URL("../", import.meta.url);

/** The Deno binary: this one under Deno, else the repository's npm `deno`; undefined if absent. */
export function denoBinary(): string | undefined {
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  if (deno !== undefined) return deno.execPath();
  const local = fileURLToPath(new URL("node_modules/.bin/deno", ROOT));
  return existsSync(local) ? local : undefined;
}

/** The repository's deno.json. */
async function denoManifest(): Promise<{
  name: string;
  exports: Record<string, string>;
  imports: Record<string, string>;
  compilerOptions: Record<string, unknown>;
}> {
  return JSON.parse(await readFile(new URL("deno.json", ROOT), "utf8"));
}

/** The import map of a consumer: the package name and subpaths, then the npm: dependencies. */
export async function consumerImports(): Promise<Record<string, string>> {
  const manifest = await denoManifest();
  const imports: Record<string, string> = { ...manifest.imports };
  for (const [key, path] of Object.entries(manifest.exports)) {
    imports[manifest.name + key.slice(1)] = new URL(path, ROOT).href;
  }
  return imports;
}

/**
 * Writes deno.json (the import map, and the repository's compiler options for `deno check`) into
 * `dir` and links the repository's node_modules.
 */
export async function createDenoProject(dir: string): Promise<void> {
  const { compilerOptions } = await denoManifest();
  const config = { nodeModulesDir: "manual", imports: await consumerImports(), compilerOptions };
  await writeFile(`${dir}/deno.json`, JSON.stringify(config, null, 2));
  await symlink(fileURLToPath(new URL("node_modules", ROOT)), `${dir}/node_modules`, "dir");
}

/** What a `deno` run printed. */
export interface DenoRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno <args>` in `cwd` with exactly `env` (plus PATH), bounded by `timeoutMs`. */
export function runDeno(
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<DenoRun> {
  const deno = denoBinary();
  if (deno === undefined) throw new Error("no deno binary");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1", ...options.env };
  const runtime = (globalThis as { Deno?: typeof Deno }).Deno;
  if (runtime !== undefined) {
    // Under Deno, node:child_process takes its own binary for `node` and grants it every
    // permission: the permission tests would prove nothing. Deno.Command runs it as given.
    return runWithDenoCommand(runtime, deno, args, { ...options, env });
  }
  return new Promise((resolve) => {
    execFile(deno, args, {
      cwd: options.cwd,
      env,
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 8 << 20,
    }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

async function runWithDenoCommand(
  runtime: typeof Deno,
  deno: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<DenoRun> {
  const command = new runtime.Command(deno, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
  });
  const { code, stdout, stderr } = await command.output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}
