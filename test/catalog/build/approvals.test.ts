// Approvals: which entries a catalog trusts, holds or approves again under each local policy
// (built-ins and host functions always trusted), the diff and message of a held entry, what the
// approvals file records (digest, definition, endpoint, canonical JSON) and refuses, and
// approve()'s and createCatalog's refusals. Real skill sources in memory. Remote tools'
// approvals: approvals_remote.test.ts; stand-ins for a held skill: approvals_stand_ins.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createStorageSource,
} from "../../../lib/mod.ts";
import { createApprovalStore } from "../../../lib/catalog/build/_approvals.ts";
import { canonicalJson, endpointOf } from "../../../lib/catalog/build/_raw_entry.ts";
import { build, messages, SKILL } from "../_approvals.ts";
import { DIGEST, summary, summarySource } from "../_skill_sources.ts";

describe("local policies", () => {
  test("built-in skills and host functions are trusted even when local entries are required", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "mine.md": SKILL("mine", "v1") } });
    const catalog = await build({ user, approvals, local: "require", builtin: true });
    assert.equal(catalog.get("mine"), undefined);
    assert.equal(catalog.get("samtools")?.source, "builtin");
    assert.equal(catalog.get("notify")?.approval, "approved");
    assert.deepEqual(catalog.held.map((h) => [h.entry.id, h.entry.approval, h.diff]), [
      ["mine", "pending", undefined],
    ]);
    assert.deepEqual(Object.keys(catalog.held[0]), ["entry"], "a new entry has no diff at all");
    assert.deepEqual(catalog.diagnostics.filter((d) => d.source === "approvals"), [{
      source: "approvals",
      problem: "pending",
      id: "mine",
      message: 'skill "mine" (user) is new and waits for an approval',
    }]);
    assert.equal(await approvals.get("approvals.json"), undefined, "nothing approved by itself");
  });

  test("first-sight approves a new skill silently and holds it once changed, with a diff", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "mine.md": SKILL("mine", "v1") } });
    const first = await build({ user, approvals, local: "first-sight" });
    assert.equal(first.get("mine")?.approval, "approved");
    assert.deepEqual(messages(first), []);
    const record = JSON.parse((await approvals.get("approvals.json"))!).records["skill:user:mine"];
    assert.equal(record.digest, first.get("mine")!.digest);

    await user.set("mine.md", SKILL("mine", "v2"));
    const second = await build({ user, approvals, local: "first-sight" });
    assert.equal(second.get("mine"), undefined);
    const [held] = second.held;
    assert.equal(held.entry.approval, "changed");
    assert.match(held.diff!, /^- v1$/m);
    assert.match(held.diff!, /^\+ v2$/m);
    assert.deepEqual(messages(second), [
      'skill "mine" (user) changed since it was approved; held until approved again',
    ]);
  });

  test("auto approves a changed skill again and says so", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "mine.md": SKILL("mine", "v1") } });
    await build({ user, approvals, local: "auto" });
    await user.set("mine.md", SKILL("mine", "v2"));
    const catalog = await build({ user, approvals, local: "auto" });
    assert.equal(catalog.get("mine")?.approval, "approved");
    assert.deepEqual(catalog.held, []);
    assert.deepEqual(catalog.diagnostics.filter((d) => d.source === "approvals"), [{
      source: "approvals",
      problem: "changed",
      id: "mine",
      message: 'skill "mine" (user) changed since it was approved; approved again (policy "auto")',
    }]);
    const record = JSON.parse((await approvals.get("approvals.json"))!).records["skill:user:mine"];
    assert.equal(record.digest, catalog.get("mine")!.digest);
    assert.match(record.definition, /v2/);
  });

  test("approve() names an id the catalog does not have and approves nothing", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "mine.md": SKILL("mine", "v1") } });
    const catalog = await build({ user, approvals, local: "require" });
    await assert.rejects(
      catalog.approve(["mine", "nope"]),
      (error: Error) =>
        error instanceof RangeError &&
        error.message === 'Cannot approve "nope": no such catalog entry',
    );
    assert.equal(await approvals.get("approvals.json"), undefined);
    await assert.rejects(
      catalog.loadSkill("notify"),
      (error: Error) => error.message === 'No usable skill "notify" in the catalog',
    );
  });
});

test("loadSkill refuses a skill whose content changed after approval", async () => {
  const skill = (body: string) =>
    `---\nname: samtools\ndescription: Sorts and indexes BAM files.\n---\n${body}\n`;
  const storage = createMemoryStorage({ initial: { "samtools.md": skill("first body") } });
  const catalog = await createCatalog({
    resolver: createResolver({ sources: [createStorageSource({ label: "user", storage })] }),
  });
  assert.equal(catalog.get("samtools")?.approval, "approved");
  const hit = await catalog.loadSkill("samtools");
  assert.match(hit.skill.body, /first body/);
  await storage.set("samtools.md", skill("rm -rf / — a changed body"));
  await assert.rejects(catalog.loadSkill("samtools"), /changed since the catalog was built/);
});

test("approval options that cannot work are refused with what to pass, not a crash", async () => {
  const refused = (approvals: unknown) =>
    createCatalog({ approvals: approvals as never }).then(
      () => assert.fail(`${JSON.stringify(approvals)} was accepted`),
      (error: Error) => error.message,
    );
  assert.match(
    await refused({ remote: "auto" }),
    /^createCatalog: approvals \{ remote \} needs a storage to record approvals in: add storage: createMemoryStorage\(\)/,
  );
  assert.match(await refused({ storage: {} }), /needs a storage to record approvals in/);
  assert.match(
    await refused({ storage: createMemoryStorage(), remote: "always" }),
    /approvals\.remote must be "auto", "first-sight" or "require", not "always"/,
  );
  assert.match(
    await refused({ storage: createMemoryStorage(), key: "" }),
    /approvals\.key must be/,
  );
  assert.match(await refused("yes"), /approvals must be an object/);
  const fine = await createCatalog({
    approvals: { storage: createMemoryStorage(), remote: "auto" },
  });
  fine.dispose();
});

describe("approval store", () => {
  test("defaults: local entries approved automatically, remote ones required", () => {
    const store = createApprovalStore({ storage: createMemoryStorage() });
    assert.deepEqual(store.policy, { local: "auto", remote: "require" });
    const set = createApprovalStore({
      storage: createMemoryStorage(),
      local: "first-sight",
      remote: "auto",
    });
    assert.deepEqual(set.policy, { local: "first-sight", remote: "auto" });
  });

  test("its file: version 1, the records, a final newline; definitions cut at 64 KiB", async () => {
    const storage = createMemoryStorage();
    const store = createApprovalStore({ storage, key: "mine.json" });
    await store.approve([
      { key: "tool:mcp:a:t", digest: "d1", definition: "x".repeat(70_000), endpoint: "url u" },
      { key: "skill:user:s", digest: "d2", definition: "short" },
    ]);
    const text = (await storage.get("mine.json"))!;
    assert.ok(text.endsWith("}\n"));
    assert.equal(await storage.get("approvals.json"), undefined);
    const doc = JSON.parse(text);
    assert.equal(doc.version, 1);
    const records = await store.all();
    assert.deepEqual({ ...records }, doc.records);
    assert.equal(records["tool:mcp:a:t"].definition.length, 65_536);
    assert.equal(records["tool:mcp:a:t"].endpoint, "url u");
    assert.deepEqual(Object.keys(records["skill:user:s"]).sort(), [
      "approvedAt",
      "definition",
      "digest",
    ]);
    assert.ok(!Number.isNaN(Date.parse(records["skill:user:s"].approvedAt)));
    await store.revoke(["tool:mcp:a:t"]);
    assert.deepEqual(Object.keys(await store.all()), ["skill:user:s"]);
  });

  test("a file that is not { records: {…} } is refused by name, and left as it was", async () => {
    for (const bad of ["null", "[1]", '{"records": null}', '{"records": 5}', "{}", "not json"]) {
      const storage = createMemoryStorage({ initial: { "approvals.json": bad } });
      const store = createApprovalStore({ storage });
      await assert.rejects(
        store.all(),
        (error: Error) =>
          error instanceof TypeError &&
          error.message ===
            'Cannot read approvals "approvals.json": expected JSON { "records": { ... } }; fix or remove it',
        bad,
      );
      await assert.rejects(store.approve([{ key: "k", digest: "d", definition: "" }]), TypeError);
      assert.equal(await storage.get("approvals.json"), bad);
    }
  });
});

describe("what an approval records", () => {
  test("an approval of a skill not read yet records its digest in place of the body", async () => {
    const storage = createMemoryStorage();
    await createCatalog({
      resolver: createResolver({
        sources: [summarySource("community", () => [summary("sorter")])],
      }),
      approvals: { storage, local: "auto" },
    });
    const records = JSON.parse((await storage.get("approvals.json"))!).records;
    assert.equal(
      records["skill:community:sorter"].definition,
      `description: The sorter skill. Use when testing.\nallowed-tools: \n\n(body not read yet: ${DIGEST})\n`,
    );
  });

  test("where a server runs: its URL, or its program and arguments", () => {
    assert.equal(endpointOf({ name: "h", url: "https://x.test/mcp" }), "url https://x.test/mcp");
    assert.equal(
      endpointOf({ name: "s", command: "node", args: ["server.js", "--port", "1"] }),
      'stdio ["node","server.js","--port","1"]',
    );
    assert.equal(endpointOf({ name: "s", command: "uvx" }), 'stdio ["uvx"]');
  });

  test("canonical JSON of definitions: keys sorted at every depth, arrays in order, null and primitives as they are", () => {
    const value = { b: 1, a: { d: [{ y: 1, x: [3, 2] }, "s"], c: null }, e: true };
    assert.equal(
      canonicalJson(value),
      '{"a":{"c":null,"d":[{"x":[3,2],"y":1},"s"]},"b":1,"e":true}',
    );
    assert.equal(canonicalJson({ z: 1, a: 2 }, 1), '{\n "a": 2,\n "z": 1\n}');
    assert.equal(canonicalJson(null), "null");
    assert.equal(canonicalJson("x"), '"x"');
  });
});
