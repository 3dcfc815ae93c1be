// `skillmux serve`: a real subprocess on port 0, connected to, then stopped with SIGTERM.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { connect } from "../../lib/mcp/client/client.ts";
import { cli, command, INVOKE, ROOT, tempHome } from "./_helpers.ts";
import { waitUntil, within } from "../_wait.ts";
import { SHAPES, SHAPES_REFUSED } from "../_agent_skills.ts";
import { skillDoc } from "../server/_helpers.ts";

const hasServer = existsSync(join(ROOT, "lib/server/mod.ts"));

test("serve --help", async () => {
  const out = await cli(["serve", "--help"], {});
  assert.equal(out.code, 0);
  assert.match(out.stdout, /Usage: skillmux serve \[folder\]/);
  assert.match(out.stdout, /--port/);
  assert.equal((await cli(["serve", "--port", "nope"], {})).code, 1);
});

test(
  "serve runs the built-in skills until SIGTERM",
  { skip: !hasServer, timeout: 30_000 },
  async () => {
    const home = await tempHome();
    const [file, args] = command(["serve", "--port", "0"]);
    const child = spawn(file, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...home.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const printed = new Promise<string>((done, fail) => {
        child.stdout.on("data", (chunk) => {
          stdout += chunk;
          const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stdout);
          if (found) done(found[1]);
        });
        child.once("exit", (code) => fail(new Error(`serve exited ${code}: ${stderr}`)));
      });
      const url = await within(printed, 20_000, "serve's URL on stdout");
      const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
      // The first listing loads the built-ins in the child: 5 s (the default) is short at load 15.
      const client = await connect({ name: "served", url }, { timeoutMs: 20_000 });
      try {
        const resources = await client.listResources();
        assert.ok(
          resources.some((r) => r.uri === "skill://samtools"),
          JSON.stringify(resources.slice(0, 3)),
        );
      } finally {
        await client.close();
      }
      await waitUntil(() => /"mcpServers"/.test(stdout), 10_000);
      // Run from this clone: the hint must be a command that works here.
      assert.match(
        stdout,
        new RegExp(`Connect with: ${INVOKE} mcp add http:\\S+ --name skillmux\n`),
      );
      // process.kill, not child.kill: Deno's child.kill reports a signal exit even when the child exits 0.
      process.kill(child.pid!, "SIGTERM");
      assert.equal(await within(exited, 10_000, "serve's exit after SIGTERM"), 0, stderr);
    } finally {
      child.kill("SIGKILL");
      await home.close();
    }
  },
);

test(
  "serve in-process stops when the signal aborts",
  { skip: !hasServer, timeout: 30_000 },
  async () => {
    const stop = new AbortController();
    let printed = "";
    const running = cli(["serve", "--json"], {}, {
      signal: stop.signal,
      onStdout: (text) => (printed += text),
    });
    await waitUntil(() => printed.includes('"url"'), 15_000); // listening: it printed its URL
    stop.abort();
    const out = await running;
    assert.equal(out.code, 0, out.stderr);
    assert.match(JSON.parse(out.stdout).url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  },
);

test("serve on a taken port says how to pick another", { skip: !hasServer }, async () => {
  const taken = createServer();
  await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
  const port = (taken.address() as { port: number }).port;
  try {
    const out = await cli(["serve", "--port", String(port)], {});
    assert.equal(out.code, 1);
    assert.match(out.stderr, new RegExp(`Port ${port} is taken.*--port <n>.*--port 0`));
  } finally {
    taken.close();
  }
});

test("serve <folder> names each skill it refuses, with why, on stderr", {
  skip: !hasServer,
  timeout: 30_000,
}, async () => {
  const controller = new AbortController();
  let stdout = "";
  const running = cli(["serve", SHAPES, "--port", "0"], {}, {
    signal: controller.signal,
    onStdout: (text) => {
      stdout += text;
      if (/Press Ctrl\+C/.test(stdout)) controller.abort();
    },
  });
  const out = await within(running, 20_000, "serve to start and stop");
  assert.equal(out.code, 0, out.stderr);
  assert.match(stdout, /^Serving 7 skills from \S+agent-shapes at http:/);
  for (const [name, reason] of Object.entries(SHAPES_REFUSED)) {
    assert.match(
      out.stderr,
      new RegExp(`warning: not serving "${name}": .*${reason.source}`),
      name,
    );
  }
});

test("serve with the built-ins turned off and no folder says so instead of serving them", async () => {
  const off = await cli(["serve", "--no-builtin"], {});
  assert.equal(off.code, 1);
  assert.match(
    off.stderr,
    /serve without a folder serves the built-in skills, which are turned off/,
  );
  const env = await cli(["serve"], { SKILLMUX_NO_BUILTIN: "1" });
  assert.equal(env.code, 1);
});

test("serve <folder> --sessions: a session hears resources/list_changed when a skill is added", {
  skip: !hasServer,
  timeout: 30_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), "skillmux-serve-sessions-"));
  await writeFile(join(dir, "alpha.md"), skillDoc("alpha", "Alpha skill. Use when testing."));
  const stop = new AbortController();
  let printed = "";
  const running = cli(["serve", dir, "--sessions", "--json"], {}, {
    signal: stop.signal,
    onStdout: (text) => (printed += text),
  });
  try {
    await waitUntil(() => printed.includes('"url"'), 15_000);
    const url = JSON.parse(printed).url as string;
    const heard: string[] = [];
    const client = await connect({ name: "served", url }, {
      protocolVersion: "2025-11-25",
      listen: false,
      onNotification: (message) => heard.push(message.method),
    });
    try {
      assert.equal((await client.listResources()).length, 1);
      await writeFile(join(dir, "gamma.md"), skillDoc("gamma", "Gamma skill. Use when testing."));
      assert.equal((await client.listResources()).length, 2);
      assert.deepEqual(heard, ["notifications/resources/list_changed"]);
    } finally {
      await client.close();
    }
  } finally {
    stop.abort();
    assert.equal((await running).code, 0);
    await rm(dir, { recursive: true, force: true });
  }
  const refused = await cli(["serve", "--sessions", "--stdio"], {});
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /--sessions is for serve over HTTP without --gateway/);
});
