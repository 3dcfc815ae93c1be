// A live catalog's own methods where the first mutation run of `catalog` found them loosely held
// (issue 19): rank's kinds and limit, render's budget (the headings' floor, the request's best
// entries kept and shown in catalog order, a counter that failed once), refresh asked twice at
// once, its notebook display, an entry's index keyed on its text, not its id alone, the order of
// entries and held ones, the version, stale discoveries, and following the registry. Real
// catalogs of host functions, built-in skills and MCP servers on 127.0.0.1; token counts by
// characters, so every figure is known.
import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type HostFunction,
} from "../../lib/mod.ts";
import { forgetProcessSegments } from "../../lib/catalog/_index_store.ts";
import { JUPYTER_DISPLAY } from "../../lib/_display.ts";
import { startToolServer } from "./_servers.ts";
import { waitUntil } from "../_wait.ts";

const fn = (name: string, description: string): HostFunction => ({
  name,
  description,
  handler: () => name,
});
const FUNCTIONS = [
  fn("archive", "Archive finished runs"),
  fn("bam_stats", "Statistics of a BAM file"),
  fn("cleanup", "Remove temporary files"),
  fn("demux", "Demultiplex a sequencing run"),
  fn("export_bam", "Export a BAM file to the archive"),
];

test("rank: kinds filter before the limit; ten by default", async () => {
  const catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    functions: FUNCTIONS,
  });
  const all = catalog.rank("sort index BAM file");
  assert.equal(all.length, 10);
  assert.equal(all[0].entry.kind, "skill");
  const functions = catalog.rank("sort index BAM file", { kinds: ["function"], limit: 2 });
  assert.deepEqual(functions.map((r) => r.entry.id).sort(), ["bam_stats", "export_bam"]);
  assert.equal(catalog.rank("sort index BAM file", { limit: 3 }).length, 3);
  assert.equal(catalog.rank("sort index BAM file", { kinds: ["skill"], limit: 3 }).length, 3);
});

test("refresh asked twice at once is one build", async () => {
  const catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    functions: FUNCTIONS,
  });
  const first = catalog.refresh();
  const second = catalog.refresh();
  assert.equal(first, second);
  await first;
  assert.notEqual(catalog.refresh(), first, "a later refresh is a new build");
  await catalog.refresh();
  // A build that failed is not handed out again.
  await assert.rejects(catalog.refresh({ signal: AbortSignal.abort() }));
  await catalog.refresh();
});

test("a notebook shows the catalog's entries", async () => {
  const catalog = await createCatalog({ functions: FUNCTIONS });
  const displayable = catalog as unknown as Record<symbol, () => Record<string, unknown>>;
  const shown = displayable[JUPYTER_DISPLAY]();
  assert.match(String(shown["text/plain"]), /export_bam/);
  assert.match(String(shown["text/html"]), /export_bam/);
});

test("an entry whose text changed under the same id is indexed anew, in this process and the next", async () => {
  const one = (description: string) => [fn("lookup", description)];
  const first = await createCatalog({ functions: one("Find alpha samples") });
  assert.equal(first.rank("alpha")[0]?.entry.id, "lookup");
  const second = await createCatalog({ functions: one("Find omega samples") });
  assert.equal(second.rank("omega")[0]?.entry.id, "lookup");
  assert.deepEqual(second.rank("alpha"), []);
  // Across processes, through a saved index: the save of the old text is not taken for the new.
  const indexStorage = createMemoryStorage();
  await createCatalog({ functions: one("Find gamma samples"), indexStorage });
  forgetProcessSegments();
  const later = await createCatalog({ functions: one("Find delta samples"), indexStorage });
  assert.equal(later.rank("delta")[0]?.entry.id, "lookup");
  assert.deepEqual(later.rank("gamma"), []);
});

test("entries in one order: skills, tools, functions, each by id, whatever order they came in", async () => {
  const server = await startToolServer(
    ["zz_tool", "mm_tool", "aa_tool"].map((name) => ({
      name,
      description: `The ${name}`,
      inputSchema: { type: "object" as const },
    })),
  );
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "srv", url: server.url });
  try {
    const skill = (name: string) =>
      `---\nname: ${name}\ndescription: The ${name} skill. Use when testing.\n---\nbody\n`;
    const catalog = await createCatalog({
      resolver: createResolver({
        sources: [
          createStorageSource({
            label: "user",
            storage: createMemoryStorage({
              initial: { "zeta.md": skill("zeta"), "beta.md": skill("beta") },
            }),
          }),
        ],
      }),
      registry,
      functions: [fn("zulu", "Last one"), fn("alpha", "First one"), fn("mike", "Middle one")],
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
    assert.deepEqual(catalog.entries.map((e) => e.id), [
      "beta",
      "zeta",
      "srv__aa_tool",
      "srv__mm_tool",
      "srv__zz_tool",
      "alpha",
      "mike",
      "zulu",
    ]);
    catalog.dispose();
  } finally {
    await server.close();
  }
});

test("held entries listed by id; the version follows ids, digests and approvals", async () => {
  const server = await startToolServer(
    ["zz_tool", "aa_tool"].map((name) => ({
      name,
      description: `The ${name}`,
      inputSchema: { type: "object" as const },
    })),
  );
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "srv", url: server.url });
  const skills = createMemoryStorage({
    initial: {
      "zeta.md": "---\nname: zeta\ndescription: Zeta. Use when testing.\n---\nbody\n",
      "beta.md": "---\nname: beta\ndescription: Beta. Use when testing.\n---\nbody\n",
    },
  });
  const build = (approvals = createMemoryStorage()) =>
    createCatalog({
      resolver: createResolver({
        sources: [createStorageSource({ label: "user", storage: skills })],
      }),
      registry,
      approvals: { storage: approvals, local: "require", remote: "require" },
    });
  try {
    const catalog = await build();
    assert.deepEqual(catalog.held.map((h) => h.entry.id), [
      "beta",
      "srv__aa_tool",
      "srv__zz_tool",
      "zeta",
    ]);
    const same = await build();
    assert.equal(same.version, catalog.version, "the same entries, the same version");
    const before = catalog.version;
    await catalog.approve(["zeta"]);
    assert.notEqual(catalog.version, before, "an approval changes the version");
    const functions = await createCatalog({ functions: FUNCTIONS });
    const fewer = await createCatalog({ functions: FUNCTIONS.slice(1) });
    assert.notEqual(functions.version, fewer.version);
    assert.match(functions.version, /^sha256:[0-9a-f]{64}$/);
    for (const c of [catalog, same, functions, fewer]) c.dispose();
  } finally {
    await server.close();
  }
});

test("by default a discovery older than an hour is asked again", async () => {
  const server = await startToolServer([
    { name: "echo", description: "Echo", inputSchema: { type: "object" } },
  ]);
  const storage = createMemoryStorage();
  const registry = createServerRegistry({ storage });
  await registry.add({ name: "srv", url: server.url });
  await server.close();
  const approvals = { storage: createMemoryStorage(), remote: "auto" as const };
  const fresh = await createCatalog({ registry, approvals });
  assert.deepEqual(fresh.diagnostics, [], "a discovery made just now is used as it is");
  fresh.dispose();
  // Age the cached discovery by 61 minutes.
  let aged = 0;
  for (const k of await storage.keys()) {
    const text = await storage.get(k);
    if (!text?.includes('"discoveredAt"')) continue;
    const doc = JSON.parse(text);
    doc.discoveredAt = new Date(Date.now() - 61 * 60_000).toISOString();
    await storage.set(k, JSON.stringify(doc));
    aged++;
  }
  assert.equal(aged, 1, "one cached discovery");
  const old = await createCatalog({ registry, approvals, timeoutMs: 2_000 });
  assert.ok(old.get("srv__echo"), "the old tools still listed");
  assert.deepEqual(old.diagnostics.map((d) => [d.source, d.problem]), [["mcp:srv", "stale"]]);
  old.dispose();
});

describe("following the registry", () => {
  test("a refresh made by someone else brings the server's new tools in", async () => {
    const server = await startToolServer([
      { name: "one", description: "The first tool", inputSchema: { type: "object" } },
    ]);
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "srv", url: server.url });
    const catalog = await createCatalog({
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
    try {
      assert.deepEqual(catalog.entries.map((e) => e.id), ["srv__one"]);
      server.tools.push({
        name: "two",
        description: "The second tool",
        inputSchema: { type: "object" },
      });
      await registry.refresh(["srv"]);
      await waitUntil(() => catalog.get("srv__two") !== undefined, 10_000)
        .catch(() => assert.fail("the catalog did not follow the refreshed discovery"));
    } finally {
      catalog.dispose();
      await server.close();
    }
  });

  test("a change while it builds is not lost: the build runs again", async () => {
    const server = await startToolServer([
      { name: "one", description: "The first tool", inputSchema: { type: "object" } },
    ]);
    // A gate in front of the server: requests wait while it is shut.
    let open!: () => void;
    let shut = new Promise<void>((done) => (open = done));
    const gate = http.createServer(async (req, res) => {
      await shut;
      const body = await new Promise<Buffer>((done) => {
        const chunks: Buffer[] = [];
        req.on("data", (c) => chunks.push(c)).on("end", () => done(Buffer.concat(chunks)));
      });
      const answer = await fetch(server.url, {
        method: req.method,
        headers: Object.entries(req.headers).filter(([k]) =>
          k !== "host" && k !== "content-length"
        ) as [
          string,
          string,
        ][],
        body: req.method === "POST" ? new Uint8Array(body) : undefined,
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    const port = await new Promise<number>((done) =>
      gate.listen(0, "127.0.0.1", () => done((gate.address() as { port: number }).port))
    );
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "gated", url: `http://127.0.0.1:${port}/mcp` }, { discover: false });
    open();
    const catalog = await createCatalog({
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
      discoveryMaxAgeMs: 0,
    });
    try {
      shut = new Promise<void>((done) => (open = done));
      const building = catalog.refresh(); // waits at the gate
      await registry.add({ name: "other", url: `${server.url}?other` }, { discover: false });
      open();
      await building;
      assert.ok(catalog.get("other__one"), "the server added during the build is in");
    } finally {
      open();
      catalog.dispose();
      await new Promise((done) => gate.close(done));
      await server.close();
    }
  });
});

describe("loadSkill and lookups", () => {
  const TEXT = "---\nname: sorter\ndescription: Sorts BAM files. Use when sorting.\n---\nbody\n";

  test("a skill now answered by another source, even with the same text, is refused", async () => {
    const user = createMemoryStorage({ initial: { "sorter.md": TEXT } });
    const community = createMemoryStorage({ initial: { "sorter.md": TEXT } });
    const catalog = await createCatalog({
      resolver: createResolver({
        sources: [
          createStorageSource({ label: "user", storage: user }),
          createStorageSource({ label: "community", storage: community }),
        ],
      }),
      approvals: { storage: createMemoryStorage(), local: "auto" },
    });
    assert.equal(catalog.get("sorter")?.source, "user");
    assert.equal((await catalog.loadSkill("sorter")).source, "user");
    await user.delete("sorter.md");
    await assert.rejects(
      catalog.loadSkill("sorter"),
      (error: Error) =>
        error.message ===
          'Skill "sorter" changed since the catalog was built (now from community); refresh the catalog',
    );
  });

  test("the caller's signal reaches the resolver; unknown ids are refused or undefined", async () => {
    const catalog = await createCatalog({
      resolver: createResolver({ sources: [createBuiltinSource()] }),
      functions: FUNCTIONS,
    });
    await assert.rejects(catalog.loadSkill("samtools", { signal: AbortSignal.abort() }));
    await assert.rejects(
      catalog.loadSkill("nope"),
      (error: Error) =>
        error instanceof RangeError && error.message === 'No usable skill "nope" in the catalog',
    );
    assert.equal(catalog.hostFunction("nope"), undefined);
    assert.equal(catalog.toolTarget("nope"), undefined);
    assert.equal(typeof catalog.hostFunction("archive"), "object");
  });
});
