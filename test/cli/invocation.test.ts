// The one way the CLI's hints and `serve --print-config` say to run `skillmux`: what runs it
// the way it was loaded, on this machine, before the package is on a registry.
import assert from "node:assert/strict";
import { test } from "node:test";
import process from "node:process";
import { cliCommand, cliInvocation } from "../../lib/cli/_invocation.ts";
import { ROOT } from "./_helpers.ts";

const IS_DENO = "Deno" in globalThis;

test("a clone (TypeScript sources): the clone's bin by absolute path, or npm run cli -- when run so", () => {
  const url = "file:///home/ada/skillmux/lib/cli/_invocation.ts";
  assert.equal(cliInvocation(url, { npm_lifecycle_event: "cli" }), "npm run cli --");
  assert.equal(
    cliInvocation(url, {}),
    IS_DENO
      ? "deno run -A /home/ada/skillmux/lib/cli/main.ts"
      : "/home/ada/skillmux/bin/skillmux.mjs",
  );
  // This test runs from the clone.
  if (!IS_DENO) assert.equal(cliInvocation(undefined, {}), `${ROOT}bin/skillmux.mjs`);
});

test("installed: skillmux when global, npx skillmux in a project, npx -p from the npx cache", () => {
  const project = "file:///app/node_modules/@skillmux/core/dist/cli/_invocation.js";
  assert.equal(cliInvocation(project, {}), "npx skillmux");
  const global = "file:///usr/local/lib/node_modules/@skillmux/core/dist/cli/_invocation.js";
  assert.equal(cliInvocation(global, {}), "skillmux");
  const npx = "file:///home/ada/.npm/_npx/1a2b/node_modules/@skillmux/core/dist/cli/_invocation.js";
  assert.equal(cliInvocation(npx, {}), "npx -y -p @skillmux/core skillmux");
  const built = "file:///home/ada/skillmux/dist/cli/_invocation.js";
  assert.equal(cliInvocation(built, {}), "node /home/ada/skillmux/dist/cli/main.js");
});

test("JSR says deno run -A jsr:@skillmux/core/cli", () => {
  const url = "https://jsr.io/@skillmux/core/0.1.0/lib/cli/_invocation.ts";
  assert.equal(cliInvocation(url), "deno run -A jsr:@skillmux/core/cli");
  assert.deepEqual(cliCommand(["serve", "--stdio"], url), {
    command: "deno",
    args: ["run", "-A", "jsr:@skillmux/core/cli", "serve", "--stdio"],
  });
});

test("the host entry: npx (with the SDK peer) only from the npx cache, else this runtime and file", () => {
  const npx = "file:///home/ada/.npm/_npx/1a2b/node_modules/@skillmux/core/dist/cli/_invocation.js";
  assert.deepEqual(cliCommand(["serve", "--stdio"], npx), {
    command: "npx",
    args: [
      "-y",
      "-p",
      "@skillmux/core",
      "-p",
      "@modelcontextprotocol/sdk",
      "skillmux",
      "serve",
      "--stdio",
    ],
  });
  const tarball = "file:///app/node_modules/@skillmux/core/dist/cli/_invocation.js";
  const entry = cliCommand(["serve", "--stdio"], tarball);
  assert.equal(entry.command, process.execPath);
  assert.deepEqual(
    entry.args,
    IS_DENO
      ? ["run", "-A", "/app/node_modules/@skillmux/core/dist/cli/main.js", "serve", "--stdio"]
      : ["/app/node_modules/@skillmux/core/dist/cli/main.js", "serve", "--stdio"],
  );
  const clone = cliCommand(
    ["serve", "--stdio"],
    "file:///home/ada/skillmux/lib/cli/_invocation.ts",
  );
  assert.deepEqual(
    clone.args,
    IS_DENO
      ? ["run", "-A", "/home/ada/skillmux/lib/cli/main.ts", "serve", "--stdio"]
      : ["/home/ada/skillmux/bin/skillmux.mjs", "serve", "--stdio"],
  );
});
