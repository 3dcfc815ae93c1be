// The multi-user registry (lib/mcp/registry/users.ts) over memory storage: what each bad user id
// is told, re-sealing the secrets of a registry that had no key (and a server removed between the
// rotation's listing and its re-sealing), and a user's view (connectable servers, share and
// unshare refusals, change events naming the users). End to end in Redis: registry_users.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertUserId, createMultiUserRegistry } from "../../../lib/mcp/registry/users.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import type { Storage } from "../../../lib/storage/types.ts";

const key = (fill: number) => new Uint8Array(32).fill(fill);
const off = { discover: false };

describe("assertUserId", () => {
  test("each problem has its own message, with the id quoted", () => {
    const cases: Array<[unknown, string]> = [
      [42, "Invalid user id 42: must be a string"],
      [undefined, "Invalid user id undefined: must be a string"],
      ["", 'Invalid user id "": must be 1 to 200 characters'],
      ["a".repeat(201), `Invalid user id "${"a".repeat(201)}": must be 1 to 200 characters`],
      ["ada\u0000", 'Invalid user id "ada\\u0000": must not contain control characters'],
      ["ada\u001f", 'Invalid user id "ada\\u001f": must not contain control characters'],
      ["ada\u007f", 'Invalid user id "ada\u007f": must not contain control characters'],
      ["ada\n", 'Invalid user id "ada\\n": must not contain control characters'],
      [".", 'Invalid user id ".": must not be "." or ".."'],
      ["..", 'Invalid user id "..": must not be "." or ".."'],
      ["@global", 'Invalid user id "@global": must not start with "@" (reserved)'],
    ];
    for (const [id, message] of cases) {
      assert.throws(
        () => assertUserId(id),
        (e) => e instanceof TypeError && e.message === message,
        String(id),
      );
    }
  });

  test("anything else is a user id", () => {
    for (const id of ["a", "a".repeat(200), "ada@example.org", "...", "a/../b", "ada\u0080", " "]) {
      assert.doesNotThrow(() => assertUserId(id), id);
    }
  });
});

/** Every value in `storage`, as one text to scan. */
async function values(storage: Storage): Promise<string> {
  const parts: string[] = [];
  for (const k of await storage.keys()) parts.push((await storage.get(k)) ?? "");
  return parts.join("\n");
}

describe("rotateSecrets", () => {
  test("a registry that had no key seals its plain secrets and then uses the key", async () => {
    const storage = createMemoryStorage();
    const registry = createMultiUserRegistry({ storage });
    await registry.forUser("ada").add(
      { name: "one", url: "https://one.example.com/mcp", apiKey: "sk-plain-1" },
      off,
    );
    await registry.global.add(
      { name: "two", url: "https://two.example.com/mcp", headers: { "X-Token": "plain-2" } },
      off,
    );
    assert.match(await values(storage), /sk-plain-1/);
    const { servers, keyId } = await registry.rotateSecrets(key(7));
    assert.equal(servers, 2);
    assert.match(keyId, /^[0-9a-f]{8}$/);
    const sealed = await values(storage);
    assert.equal(sealed.includes("sk-plain-1") || sealed.includes("plain-2"), false, sealed);
    assert.match(sealed, new RegExp(`enc:v1:${keyId}`));
    // The same instance now opens with the key; another needs it.
    assert.equal((await registry.forUser("ada").get("one"))?.apiKey, "sk-plain-1");
    const withKey = createMultiUserRegistry({ storage, secrets: { key: key(7) } });
    assert.equal((await withKey.global.get("two"))?.headers?.["X-Token"], "plain-2");
    const keyless = await createMultiUserRegistry({ storage }).forUser("ada").list()
      .catch((e) => e);
    assert.equal(keyless.name, "SecretKeyError");
  });

  test("a server removed after the listing is neither written back nor counted", async () => {
    const storage = createMemoryStorage();
    const registry = createMultiUserRegistry({ storage });
    await registry.forUser("ada").add(
      { name: "one", url: "https://one.example.com/mcp", apiKey: "sk-1" },
      off,
    );
    const before = await storage.keys();
    const serverKeys = before.filter((k) => k.startsWith("registry/servers/"));
    assert.equal(serverKeys.length, 1, before.join(", "));
    // A listing that still names a server another instance has just removed.
    const ghost = `${serverKeys[0]}-removed`;
    const stale: Storage = {
      get: (k) => storage.get(k),
      set: (k, v) => storage.set(k, v),
      delete: (k) => storage.delete(k),
      compareAndSet: (k, expected, value) => storage.compareAndSet!(k, expected, value),
      keys: async (prefix) => [
        ...await storage.keys(prefix),
        ...(prefix === "registry/servers/" ? [ghost] : []),
      ],
    };
    const rotating = createMultiUserRegistry({ storage: stale });
    assert.equal((await rotating.rotateSecrets(key(3))).servers, 1);
    assert.deepEqual(await storage.keys(), before, "no record appeared for the removed server");
    assert.equal(await storage.get(ghost), undefined);
  });
});

describe("a user's view", () => {
  test("connectable: enabled servers with a URL or a command, never the built-in ones", async () => {
    const registry = createMultiUserRegistry({ storage: createMemoryStorage() });
    const ada = registry.forUser("ada");
    await ada.add({ name: "on", url: "https://on.example.com/mcp", apiKey: "k" }, off);
    await ada.add({ name: "off", url: "https://off.example.com/mcp", enabled: false }, off);
    await registry.global.add({ name: "team", url: "https://team.example.com/mcp" }, off);
    const listed = await ada.list();
    assert.deepEqual(listed.map((s) => s.name).sort(), ["builtin-skills", "off", "on", "team"]);
    assert.equal(
      listed.find((s) => s.id === "builtin:skills")?.description,
      "The skills that ship with skillmux, served in-process",
    );
    assert.deepEqual((await ada.connectable()).map((s) => s.name).sort(), ["on", "team"]);
    const local = createMultiUserRegistry({ storage: createMemoryStorage(), allowStdio: true })
      .forUser("ada");
    await local.add({ name: "cli", command: "skills-server" }, off);
    assert.deepEqual((await local.connectable()).map((s) => s.name), ["cli"]);
  });

  test("share and unshare name what was refused", async () => {
    const registry = createMultiUserRegistry({ storage: createMemoryStorage() });
    await registry.forUser("ada").add({ name: "lab", url: "https://lab.example.com/mcp" }, off);
    const lab = (await registry.forUser("ada").get("lab"))!;
    await registry.forUser("ada").share("lab", "carol"); // carol sees it, but it is not hers
    const carol = registry.forUser("carol");
    for (const verb of ["share", "unshare"] as const) {
      const error = await carol[verb](lab.id, "dave").catch((e) => e);
      assert.equal(error.name, "ForbiddenError");
      assert.equal(error.message, `Cannot ${verb} server "lab": only its owner may`);
      const builtin = await carol[verb]("builtin:skills", "dave").catch((e) => e);
      assert.equal(
        builtin.message,
        `Cannot ${verb} "builtin-skills": built-in servers cannot be changed`,
      );
    }
    await assert.rejects(registry.forUser("ada").share("lab", "@all"), TypeError);
  });

  test('change events: the users whose view changed, "all" for a global server', async () => {
    const registry = createMultiUserRegistry({ storage: createMemoryStorage() });
    const changes: unknown[] = [];
    const stop = registry.onChange((change) => changes.push(change));
    await registry.global.add({ name: "team", url: "https://team.example.com/mcp" }, off);
    await registry.forUser("ada").add({ name: "lab", url: "https://lab.example.com/mcp" }, off);
    const team = (await registry.global.get("team"))!;
    const lab = (await registry.forUser("ada").get("lab"))!;
    assert.deepEqual(changes, [{ id: team.id, users: "all" }, { id: lab.id, users: ["ada"] }]);
    stop();
    await registry.global.remove("team");
    assert.equal(changes.length, 2, "no event after unsubscribing");
  });
});
