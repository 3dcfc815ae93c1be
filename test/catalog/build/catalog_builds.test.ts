// Building and refreshing a catalog: createCatalog's signal and per-server timeoutMs; refresh
// asked twice at once is one build, a failed build not handed out again; MCP tools from the
// registry's fresh discovery cache without a connection, a discovery older than an hour asked
// again; following the registry (a refresh made by someone else, a change while a build runs, a
// server added while skills are listed); slow sources reported as slow, not invalid. Real
// catalogs of host functions, built-in skills, skill sources and MCP servers on 127.0.0.1.
// Over 300 lines: one behaviour, a catalog's builds.
import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type SkillSource,
} from "../../../lib/mod.ts";
import { startToolServer } from "../_servers.ts";
import { listenLocal } from "../../mcp/_servers.ts";
import { waitUntil } from "../../_wait.ts";
import { FIVE_FUNCTIONS as FUNCTIONS, fn, queryTool as tool } from "../_entries.ts";

test("createCatalog: its signal cancels the first build", async () => {
  const reason = new Error("stop building");
  await assert.rejects(
    createCatalog({
      resolver: createResolver({
        sources: [createStorageSource({ label: "user", storage: createMemoryStorage() })],
      }),
      functions: [fn("notify", "Tell the user")],
      signal: AbortSignal.abort(reason),
    }),
    (error: unknown) => error === reason,
  );
});

test("createCatalog: a server slower than timeoutMs is reported after timeoutMs, not the default", async () => {
  // A server that takes every request and never answers.
  const silent = await listenLocal(http.createServer(() => {}));
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "slow", url: `http://127.0.0.1:${silent.port}/mcp` }, {
    discover: false,
  });
  try {
    const started = Date.now();
    const catalog = await createCatalog({
      registry,
      functions: [fn("notify", "Tell the user")],
      approvals: { storage: createMemoryStorage(), remote: "auto" },
      timeoutMs: 300,
    });
    const took = Date.now() - started;
    catalog.dispose();
    assert.deepEqual(catalog.entries.map((e) => e.id), ["notify"]);
    assert.deepEqual(catalog.diagnostics.map((d) => [d.source, d.problem]), [
      ["mcp:slow", "timeout"], // slow, not down (issue 43)
    ]);
    assert.match(catalog.diagnostics[0].message, /\b300 ms\b/);
    assert.ok(took < 8_000, `the build took ${took} ms, past its 300 ms timeout`);
  } finally {
    await silent.close();
  }
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

describe("MCP tools from the registry", () => {
  test("come from the fresh discovery cache without a connection, and follow changes", async () => {
    const server = await startToolServer([tool("search", "Search the web")]);
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "web", url: server.url });
    await server.close();
    const approvals = { storage: createMemoryStorage(), remote: "auto" as const };
    const catalog: Catalog = await createCatalog({ registry, approvals });
    const entry = catalog.get("web__search")!;
    assert.equal(entry.needsConnection, true);
    assert.equal(entry.source, "mcp:web");

    const stale = await createCatalog({
      registry,
      approvals,
      discoveryMaxAgeMs: 0,
      timeoutMs: 2_000,
    });
    assert.ok(stale.get("web__search"), "a stale cache still lists the tools");
    assert.ok(stale.diagnostics.some((d) => d.problem === "stale" && d.source === "mcp:web"));
    stale.dispose();

    const other = await startToolServer([tool("lookup", "Look a gene up")]);
    try {
      await registry.add({ name: "genes", url: other.url });
      await waitUntil(() => catalog.get("genes__lookup") !== undefined, 10_000)
        .catch(() => assert.fail("the catalog did not rebuild after the registry changed"));
    } finally {
      catalog.dispose();
      await other.close();
    }
  });
});

describe("slow sources are slow, not invalid", () => {
  test("a skill source that times out is a timeout diagnostic; a failing one is unreachable", async () => {
    const never = {
      label: "mcp:glacial",
      list: () => new Promise<string[]>(() => {}),
      get: () => Promise.resolve(undefined),
    };
    const failing = {
      label: "mcp:broken",
      list: () => Promise.reject(new Error("connection refused")),
      get: () => Promise.resolve(undefined),
    };
    const catalog = await createCatalog({
      resolver: createResolver({ sources: [[never, failing]], timeoutMs: 100 }),
    });
    const problems = Object.fromEntries(catalog.diagnostics.map((d) => [d.source, d.problem]));
    assert.deepEqual(problems, { "mcp:glacial": "timeout", "mcp:broken": "unreachable" });
    catalog.dispose();
  });
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

test("a server added while a build lists skills is in the build that follows, with no discovery to prompt it", async () => {
  const server = await startToolServer([
    { name: "echo", description: "Echoes text", inputSchema: { type: "object" } },
  ]);
  // The first listing of skills waits until the test lets it go: the build is under way.
  let listing!: () => void;
  const listed = new Promise<void>((done) => (listing = done));
  let release!: () => void;
  const gate = new Promise<void>((done) => (release = done));
  let first = true;
  const skills: SkillSource = {
    label: "user",
    get: () => Promise.resolve(undefined),
    list: async () => {
      if (first) {
        first = false;
        listing();
        await gate;
      }
      return [];
    },
  };
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  const building = createCatalog({
    resolver: createResolver({ sources: [skills] }),
    registry,
    approvals: { storage: createMemoryStorage(), remote: "auto" },
  });
  try {
    await listed;
    // Not discovered: the change is the server alone, and the build in flight read the list before.
    await registry.add({ name: "late", url: server.url }, { discover: false });
    release();
    const catalog = await building;
    catalog.dispose();
    assert.deepEqual(catalog.entries.map((e) => e.id), ["late__echo"]);
  } finally {
    release();
    await server.close();
  }
});
