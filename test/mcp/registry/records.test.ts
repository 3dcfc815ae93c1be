// Server records and their patches (lib/mcp/registry/records.ts): through the public registry on
// memory storage (no server contacted: discover off), switching a server to a URL drops its stdio
// fields and to a command its HTTP fields, `null` removes an optional field but never name, url,
// command or enabled, an unknown field is refused by name, `enabled` must be a boolean (true is
// not stored), a description is at most 1000 characters without control characters; and
// applyServerPatch alone: a field given as undefined is left as it was, the patch's objects are
// copied, and ids sort in creation order (the sequence counts within one millisecond only).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createServerRegistry } from "../../../lib/mcp/registry/registry.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import {
  applyServerPatch,
  newServerId,
  type ServerPatch,
} from "../../../lib/mcp/registry/records.ts";
import type { McpServerConfig } from "../../../lib/mcp/protocol/types.ts";

describe("patches through the registry", () => {
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
    assert.deepEqual(
      await refused(registry.update("lab", { description: "a".repeat(1001) }, off)),
      [
        "description",
        "description must be at most 1000 characters, not 1001",
      ],
    );
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
});

describe("applyServerPatch", () => {
  const server = {
    id: "s1",
    name: "docs",
    url: "https://docs.example.com/mcp",
    apiKey: "k",
    headers: { "X-A": "1" },
  };

  test("a field given as undefined is left as it was", () => {
    const next = applyServerPatch(server, { apiKey: undefined, headers: undefined, name: "d2" });
    assert.deepEqual(next, { ...server, name: "d2" });
    assert.equal(
      Object.hasOwn(
        applyServerPatch({ id: "s2", name: "n", command: "c" }, {
          description: undefined,
        }),
        "description",
      ),
      false,
    );
  });

  test("null never removes name, url, command or enabled", () => {
    for (const key of ["name", "url", "command", "enabled"] as const) {
      assert.throws(
        () => applyServerPatch(server, { [key]: null } as ServerPatch),
        (e) =>
          (e as Error).name === "PolicyError" &&
          (e as Error).message === `cannot remove "${key}"` &&
          (e as { field?: string }).field === key,
        key,
      );
    }
    assert.deepEqual(applyServerPatch(server, { apiKey: null }), {
      id: "s1",
      name: "docs",
      url: "https://docs.example.com/mcp",
      headers: { "X-A": "1" },
    });
  });

  test("objects and arrays of the patch are copied", () => {
    const headers = { "X-B": "2" };
    const env = { MODE: "x" };
    const args = ["--a"];
    const http = applyServerPatch(server, { headers });
    const stdio = applyServerPatch<McpServerConfig>({ name: "lab", command: "lab" }, {
      env,
      args,
    });
    headers["X-B"] = "changed";
    env.MODE = "changed";
    args.push("--b");
    assert.deepEqual(http.headers, { "X-B": "2" });
    assert.deepEqual(stdio.env, { MODE: "x" });
    assert.deepEqual(stdio.args, ["--a"]);
    assert.deepEqual(server.headers, { "X-A": "1" }, "the server given is not changed");
  });

  test("a patch's description is checked; null removes it", () => {
    const described = { ...server, description: "Team docs" };
    for (
      const [description, message] of [
        ["x".repeat(1001), "description must be at most 1000 characters, not 1001"],
        ["a\u0007b", "description must not contain control characters"],
        [42, "description must be a string"],
      ] as const
    ) {
      assert.throws(
        () => applyServerPatch(described, { description } as ServerPatch),
        (e) => (e as Error).name === "PolicyError" && (e as Error).message === message,
        message,
      );
    }
    assert.equal(
      Object.hasOwn(applyServerPatch(described, { description: null }), "description"),
      false,
    );
    assert.equal(applyServerPatch(described, { name: "n" }).description, "Team docs");
  });

  test("an id's sequence counts up within a millisecond and starts at 000 in the next", () => {
    const parts = (id: string) => {
      const [, time, sequence] = /^s-([0-9a-z]{9})([0-9a-z]{3})-[0-9a-z]{14}$/.exec(id) ?? [];
      assert.ok(time !== undefined, id);
      return { time, sequence: parseInt(sequence, 36) };
    };
    let previous = parts(newServerId());
    let changes = 0;
    let same = 0;
    // Bounded: a millisecond passes long before a million ids.
    for (let i = 0; i < 1_000_000 && (changes < 3 || same < 3); i++) {
      const next = parts(newServerId());
      if (next.time === previous.time) {
        assert.equal(next.sequence, previous.sequence + 1);
        same++;
      } else {
        assert.ok(next.time > previous.time);
        assert.equal(next.sequence, 0);
        changes++;
      }
      previous = next;
    }
    assert.ok(changes >= 3 && same >= 3, `${changes} new milliseconds, ${same} ids within one`);
  });
});
