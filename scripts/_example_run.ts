// Private: runs one built-in skill's examples in a fresh folder on the toy data and judges each
// (exit code and a plausible output). Used by scripts/skill_examples.ts.
import { spawn } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { exampleCommandLine, type Skill } from "../lib/skill/mod.ts";
import { entryFiles, type ExampleClaim, type ExampleMap } from "./_example_map.ts";
import { TOY_COMPANIONS, TOY_FILES } from "./_toy_data.ts";

/** The outcome of one example. */
export interface ExampleResult {
  task: string;
  command: string;
  status: "passed" | "failed" | "skipped";
  /** Why it was skipped or failed. */
  reason?: string;
  seconds?: number;
  /** How many claims of the example were checked (all held when it passed). */
  claims?: number;
}

/** What a shell command did. */
export interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  seconds: number;
}

const KEEP = 64 * 1024;
/** Process groups of examples still running. */
const LIVE = new Set<number>();

/** Stops every example still running (for an interrupted run). */
export function stopAll(): void {
  for (const pgid of LIVE) killGroup(pgid);
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch { /* already gone */ }
}

/** The last 64 KiB of a file, as text. */
function tailOf(path: string): string {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, KEEP));
    const n = readSync(fd, buf, 0, buf.length, Math.max(0, size - KEEP));
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Runs `script` with bash in `cwd`, stopped (its whole process group) after `timeoutS` seconds.
 * Stdout and stderr go to files, as in real use (`/dev/stdout` and `/dev/stderr` cannot be opened
 * on the socket a pipe from Node is: MAFFT writes its progress to /dev/stderr and stopped with "No
 * such device or address"); the first 64 KiB of stdout and the last 64 KiB of stderr are returned.
 */
export async function shell(
  script: string,
  cwd: string,
  timeoutS: number,
  env: Record<string, string> = {},
): Promise<ShellResult> {
  const started = performance.now();
  const outDir = await mkdtemp(join(tmpdir(), "skillmux-out-"));
  const outPath = join(outDir, "stdout");
  const errPath = join(outDir, "stderr");
  const out = openSync(outPath, "w");
  const err = openSync(errPath, "w");
  try {
    const { code, stderr, timedOut } = await new Promise<
      { code: number | null; stderr: string; timedOut: boolean }
    >(
      (done) => {
        const child = spawn("bash", ["-o", "pipefail", "-c", script], {
          cwd,
          detached: true,
          stdio: ["ignore", out, err],
          env: {
            PATH: process.env.PATH ?? "/usr/bin:/bin",
            HOME: cwd,
            TMPDIR: cwd,
            LC_ALL: "C.UTF-8",
            LANG: "C.UTF-8",
            ...env,
          },
        });
        let timedOut = false;
        if (child.pid !== undefined) LIVE.add(child.pid);
        const timer = setTimeout(() => {
          timedOut = true;
          killGroup(child.pid!);
        }, timeoutS * 1000);
        child.on("close", (code) => {
          clearTimeout(timer);
          LIVE.delete(child.pid!);
          done({ code, stderr: tailOf(errPath), timedOut });
        });
      },
    );
    const head = Buffer.alloc(KEEP);
    const fd = openSync(outPath, "r");
    const n = readSync(fd, head, 0, KEEP, 0);
    closeSync(fd);
    const stdout = head.subarray(0, n).toString("utf8");
    return { code, stdout, stderr, timedOut, seconds: (performance.now() - started) / 1000 };
  } finally {
    closeSync(out);
    closeSync(err);
    await rm(outDir, { recursive: true, force: true });
  }
}

/** Files under `dir` (relative path → size and mtime), folders walked. */
async function snapshot(dir: string, prefix = ""): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = join(prefix, e.name);
    if (e.isDirectory()) { for (const [k, v] of await snapshot(dir, rel)) out.set(k, v); }
    else {
      const s = await stat(join(dir, rel)).catch(() => undefined);
      if (s) out.set(rel, `${s.size}:${s.mtimeMs}`);
    }
  }
  return out;
}

async function nonEmpty(path: string): Promise<boolean> {
  const s = await stat(path).catch(() => undefined);
  if (s === undefined) return false;
  return s.isDirectory() ? (await readdir(path)).length > 0 : s.size > 0;
}

/** Options of one skill's run. */
export interface RunOptions {
  toyDir: string;
  timeoutS: number;
  /** Examples after this moment (performance.now() ms) are skipped: the total budget is spent. */
  deadline: number;
  keep?: boolean;
}

/** Runs the examples of `skill` per its entry in `map`; the entry must exist and not skip the skill. */
export async function runSkillExamples(
  skill: Skill,
  map: ExampleMap,
  opts: RunOptions,
): Promise<ExampleResult[]> {
  const entry = map.skills[skill.name]!;
  const truth = await readTruth(opts.toyDir);
  const dir = await mkdtemp(join(tmpdir(), `skillmux-ex-${skill.name}-`));
  const results: ExampleResult[] = [];
  try {
    for (const [name, key] of Object.entries(entryFiles(skill.name, entry, map.aliases))) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await copyFile(join(opts.toyDir, TOY_FILES[key]), join(dir, name));
      for (const ext of TOY_COMPANIONS[key] ?? []) {
        await copyFile(join(opts.toyDir, TOY_FILES[key] + ext), join(dir, name + ext));
      }
    }
    let setupError: string | undefined;
    if (entry.setup) {
      const r = await shell(entry.setup, dir, Math.max(opts.timeoutS, 120));
      if (r.code !== 0 && r.code !== 141) {
        setupError = `setup failed (exit ${r.code}${r.timedOut ? ", timed out" : ""}): ${
          tail(r.stderr)
        }`;
      }
    }
    for (const example of skill.examples) {
      const command = exampleCommandLine(skill, example);
      const exp = entry.examples?.[example.task] ?? {};
      const base = { task: example.task, command };
      if (exp.skip !== undefined) {
        results.push({ ...base, status: "skipped", reason: exp.skip });
        continue;
      }
      if (setupError) {
        results.push({ ...base, status: "failed", reason: setupError });
        continue;
      }
      if (performance.now() > opts.deadline) {
        results.push({
          ...base,
          status: "skipped",
          reason: "the run's total time budget was spent",
        });
        continue;
      }
      const before = await snapshot(dir);
      const pre = entry.before?.[example.task];
      const r = await shell(
        pre ? `${pre}\n${command}` : command,
        dir,
        exp.timeout ?? opts.timeoutS,
      );
      let reason = await judge(r, exp, dir, before);
      if (reason === undefined && exp.claims?.length) {
        reason = await checkClaims(exp.claims, dir, truth, exp.timeout ?? opts.timeoutS, r);
      }
      results.push({
        ...base,
        status: reason ? "failed" : "passed",
        reason,
        seconds: r.seconds,
        ...(exp.claims?.length ? { claims: exp.claims.length } : {}),
      });
    }
  } finally {
    if (!opts.keep) await rm(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
  return results;
}

/** The known answers of the toy data (truth.json), or none when the folder has no truth file. */
async function readTruth(toyDir: string): Promise<Record<string, number | string>> {
  try {
    return JSON.parse(await readFile(join(toyDir, "truth.json"), "utf8"));
  } catch {
    return {};
  }
}

/** `text` with each `{truth.name}` replaced by the known answer; throws on an unknown name. */
export function withTruth(text: string, truth: Record<string, number | string>): string {
  return text.replace(/\{truth\.([A-Za-z0-9_]+)\}/g, (_, k: string) => {
    if (truth[k] === undefined) throw new Error(`unknown truth value {truth.${k}}`);
    return String(truth[k]);
  });
}

/**
 * Why a claim does not hold (the first that fails), or `undefined` when all hold. The example's
 * captured stdout and stderr are files named by `$EXAMPLE_STDOUT` and `$EXAMPLE_STDERR` in the
 * claim's shell (outside the example's folder), for claims about what it printed.
 */
export async function checkClaims(
  claims: ExampleClaim[],
  dir: string,
  truth: Record<string, number | string>,
  timeoutS: number,
  printed: { stdout: string; stderr: string } = { stdout: "", stderr: "" },
): Promise<string | undefined> {
  const io = await mkdtemp(join(tmpdir(), "skillmux-claim-"));
  try {
    const env = { EXAMPLE_STDOUT: join(io, "stdout"), EXAMPLE_STDERR: join(io, "stderr") };
    await writeFile(env.EXAMPLE_STDOUT, printed.stdout);
    await writeFile(env.EXAMPLE_STDERR, printed.stderr);
    return await checkEach(claims, dir, truth, timeoutS, env);
  } finally {
    await rm(io, { recursive: true, force: true });
  }
}

async function checkEach(
  claims: ExampleClaim[],
  dir: string,
  truth: Record<string, number | string>,
  timeoutS: number,
  env: Record<string, string>,
): Promise<string | undefined> {
  for (const c of claims) {
    let run: string;
    try {
      run = withTruth(c.run, truth);
    } catch (e) {
      return `claim "${c.claim}": ${(e as Error).message}`;
    }
    const r = await shell(run, dir, timeoutS, env);
    const out = r.stdout.trim();
    const fail = (why: string) => `claim "${c.claim}" does not hold: ${why} ($ ${run})`;
    if (r.timedOut) return fail(`its check timed out`);
    // 141: a writer stopped by SIGPIPE because a reader (head) had enough, as for examples.
    if (r.code !== 0 && r.code !== 141) {
      return fail(`its check exited ${r.code}: ${tail(r.stderr || r.stdout)}`);
    }
    try {
      if (c.equals !== undefined && out !== withTruth(c.equals, truth)) {
        return fail(`got "${tail(out)}", expected "${withTruth(c.equals, truth)}"`);
      }
      if (c.matches !== undefined && !new RegExp(withTruth(c.matches, truth), "m").test(out)) {
        return fail(`got "${tail(out)}", expected /${withTruth(c.matches, truth)}/`);
      }
      const bound = (v: number | string) => Number(withTruth(String(v), truth));
      const n = Number(out);
      if (c.atLeast !== undefined && !(n >= bound(c.atLeast))) {
        return fail(`got "${tail(out)}", expected at least ${bound(c.atLeast)}`);
      }
      if (c.atMost !== undefined && !(n <= bound(c.atMost))) {
        return fail(`got "${tail(out)}", expected at most ${bound(c.atMost)}`);
      }
    } catch (e) {
      return `claim "${c.claim}": ${(e as Error).message}`;
    }
  }
  return undefined;
}

function tail(text: string): string {
  return text.trim().split("\n").slice(-3).join(" | ").slice(0, 400);
}

/** Why the run does not pass, or `undefined` when it does. */
async function judge(
  r: ShellResult,
  exp: { files?: string[]; count?: boolean; stdout?: string; exit?: number },
  dir: string,
  before: Map<string, string>,
): Promise<string | undefined> {
  if (r.timedOut) return `timed out after ${r.seconds.toFixed(0)} s`;
  const want = exp.exit ?? 0;
  // 141: a writer stopped by SIGPIPE because a reader (head) had enough, as in `... | head`.
  if (r.code !== want && !(r.code === 141 && want === 0)) {
    return `exit ${r.code} (expected ${want}): ${tail(r.stderr || r.stdout)}`;
  }
  for (const f of exp.files ?? []) {
    if (!(await nonEmpty(join(dir, f)))) return `${f} is missing or empty`;
  }
  if (exp.count) {
    const n = Number(/-?\d+/.exec(r.stdout)?.[0] ?? NaN);
    if (!(n > 0)) {
      return `the count is ${Number.isNaN(n) ? "missing" : n} (stdout: ${tail(r.stdout)})`;
    }
  }
  if (exp.stdout !== undefined && !new RegExp(exp.stdout, "m").test(r.stdout)) {
    return `stdout does not match /${exp.stdout}/: ${tail(r.stdout)}`;
  }
  if (!exp.files && !exp.count && exp.stdout === undefined && r.stdout.trim() === "") {
    const after = await snapshot(dir);
    const changed = [...after].filter(([k, v]) => before.get(k) !== v && !v.startsWith("0:"));
    if (changed.length === 0) return "no output: stdout is empty and no file was written";
  }
  return undefined;
}
