// A script that uses a stdio MCP server and forgets to close it must still exit by itself:
// the idle child is unref'd, and killed when the host process exits.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const everything = createRequire(import.meta.url)
  .resolve("@modelcontextprotocol/server-everything/package.json")
  .replace(/package\.json$/, "dist/index.js");
const client = fileURLToPath(new URL("../../../lib/mcp/client/client.ts", import.meta.url));
const stdioEntry = fileURLToPath(new URL("../../../lib/mcp/transport/stdio.ts", import.meta.url));

/** This runtime's command line for running a TypeScript file. */
function runner(file: string): [string, string[]] {
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  const config = fileURLToPath(new URL("../../../deno.json", import.meta.url));
  return deno
    ? [deno.execPath(), ["run", "-A", "--config", config, file]]
    : [process.execPath, ["--import", "tsx", file]];
}

test("a script that never closes its stdio client exits on its own, leaving no child behind", async () => {
  const dir = await mkdtemp(join(tmpdir(), "skillmux-exit-"));
  try {
    const script = join(dir, "script.mts"); // .mts: an ES module wherever it lives
    await writeFile(
      script,
      `import { connect } from ${JSON.stringify(client)};\n` +
        `import { stdio } from ${JSON.stringify(stdioEntry)};\n` +
        `const c = await connect({ name: "ev", command: "node", args: [${
          JSON.stringify(everything)
        }, "stdio"] }, { stdio: stdio() });\n` +
        `console.log("pid", (await c.listTools()).length > 0 ? "tools" : "none");\n`,
    );
    const [command, args] = runner(script);
    type Outcome = { code: number; killed: boolean; stdout: string; stderr: string };
    const outcome = await new Promise<Outcome>((resolve) => {
      const options = { timeout: 20_000, cwd: process.cwd() };
      const child = execFile(command, args, options, (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, killed: child.killed, stdout: String(stdout), stderr: String(stderr) });
      });
    });
    assert.equal(outcome.killed, false, "the script had to be killed: something kept it alive");
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.match(outcome.stdout, /tools/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
