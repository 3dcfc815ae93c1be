// applyServerPatch on its own, rules the second registry mutation run found no test holding: a
// field given as undefined is left as it was (not set to undefined), each required field refuses
// null, the patch's objects are copied, not shared with the server that results, the description
// is checked here too, and the sequence of an id counts within one millisecond only.
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyServerPatch, newServerId } from "../../../lib/mcp/registry/records.ts";
import type { ServerPatch } from "../../../lib/mcp/registry/records.ts";
import type { McpServerConfig } from "../../../lib/mcp/protocol/types.ts";

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
        (e as Error).name === "PolicyError" && (e as Error).message === `cannot remove "${key}"` &&
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
