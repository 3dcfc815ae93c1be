// Server patches of the registry, rules no test held under mutation: switching a server to a URL
// drops its stdio fields and to a command drops its HTTP fields, `null` removes an optional field
// but never name, url, command or enabled, an unknown field is refused by name, `enabled` must be
// a boolean (true is the default and is not stored), a description is at most 1000 characters
// without control characters (tab and line break allowed), and ids sort in creation order.
// Through the public registry on memory storage (no server is contacted: discover off).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createServerRegistry } from "../../../lib/mcp/registry/registry.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { newServerId } from "../../../lib/mcp/mod.ts";

const off = { discover: false };

async function fresh() {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({
    name: "lab",
    command: "lab-server",
    args: ["--fast"],
    env: { MODE: "x" },
    cwd: "/tmp",
  }, off);
  return registry;
}

/** The PolicyError `promise` rejects with: [field, message]. */
async function refused(promise: Promise<unknown>): Promise<[unknown, string]> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.equal(error?.name, "PolicyError", String(error));
  return [error.field, error.message];
}

test("switching between a command and a URL drops the other kind's fields", async () => {
  const registry = await fresh();
  const { server: http } = await registry.update("lab", {
    url: "https://lab.example.org/mcp",
    apiKey: "k",
    headers: { "X-A": "1" },
    transport: "streamable-http",
  }, off);
  for (const gone of ["command", "args", "env", "cwd"]) assert.equal(gone in http, false, gone);
  assert.equal(http.apiKey, "k");
  const { server: stdio } = await registry.update("lab", { command: "lab2" }, off);
  for (const gone of ["url", "apiKey", "headers", "transport"]) {
    assert.equal(gone in stdio, false, gone);
  }
  assert.equal(stdio.command, "lab2");
});

test("null removes an optional field, never a required one; unknown fields are refused", async () => {
  const registry = await fresh();
  const { server } = await registry.update("lab", { args: null, description: "d" }, off);
  assert.equal("args" in server, false);
  assert.deepEqual(server.env, { MODE: "x" });
  for (const key of ["name", "command", "enabled"]) {
    assert.deepEqual(await refused(registry.update("lab", { [key]: null }, off)), [
      key,
      `cannot remove "${key}"`,
    ]);
  }
  assert.deepEqual(await refused(registry.update("lab", { colour: "red" } as never, off)), [
    "colour",
    'cannot update "colour": not a server field',
  ]);
  for (const patch of [null, [], "x"]) {
    assert.deepEqual(await refused(registry.update("lab", patch as never, off)), [
      "patch",
      "a server patch must be an object",
    ]);
  }
  const args = ["--a"];
  await registry.update("lab", { args }, off);
  args.push("--b");
  assert.deepEqual((await registry.get("lab"))?.args, ["--a"], "the patch's array is copied");
});

test("enabled is a boolean and true is not stored; descriptions are checked", async () => {
  const registry = await fresh();
  assert.deepEqual(await refused(registry.update("lab", { enabled: "no" as never }, off)), [
    "enabled",
    "enabled must be true or false",
  ]);
  assert.equal((await registry.update("lab", { enabled: false }, off)).server.enabled, false);
  assert.equal("enabled" in (await registry.update("lab", { enabled: true }, off)).server, false);
  const ok = "a".repeat(999) + "\t";
  assert.equal((await registry.update("lab", { description: ok }, off)).server.description, ok);
  assert.equal(
    (await registry.update("lab", { description: "two\nlines" }, off)).server.description,
    "two\nlines",
  );
  assert.deepEqual(await refused(registry.update("lab", { description: "a".repeat(1001) }, off)), [
    "description",
    "description must be at most 1000 characters, not 1001",
  ]);
  for (const bad of ["bell\u0007", "vt\u000b", "esc\u001b", "del\u007f", "nul\u0000"]) {
    assert.deepEqual(await refused(registry.update("lab", { description: bad }, off)), [
      "description",
      "description must not contain control characters",
    ], JSON.stringify(bad));
  }
  assert.deepEqual(await refused(registry.update("lab", { description: 7 as never }, off)), [
    "description",
    "description must be a string",
  ]);
});

test("server ids sort in the order they were made, within one millisecond too", () => {
  const ids = Array.from({ length: 200 }, () => newServerId());
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^s-[0-9a-z]{12}-[0-9a-z]{14}$/);
});
