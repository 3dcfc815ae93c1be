// The command prefix the CLI's hints print: what runs `skillmux` the way it was loaded.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cliInvocation } from "../../lib/cli/_invocation.ts";

test("a clone (TypeScript sources) says npm run cli --", () => {
  assert.equal(cliInvocation(), "npm run cli --"); // this test runs from the clone
  assert.equal(cliInvocation("file:///home/ada/skillmux/lib/cli/_invocation.ts"), "npm run cli --");
});

test("an npm install (compiled dist/) says skillmux", () => {
  const url = "file:///app/node_modules/@skillmux/core/dist/cli/_invocation.js";
  assert.equal(cliInvocation(url), "skillmux");
});

test("JSR says deno run -A jsr:@skillmux/core/cli", () => {
  const url = "https://jsr.io/@skillmux/core/0.1.0/lib/cli/_invocation.ts";
  assert.equal(cliInvocation(url), "deno run -A jsr:@skillmux/core/cli");
});
