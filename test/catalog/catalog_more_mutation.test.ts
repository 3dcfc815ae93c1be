// A live catalog's own methods where the fourth mutation run of `catalog` found them loosely held:
// the first build's signal and per-server timeout handed on by `createCatalog`, render's walk
// within a budget (each line counted once, lazily, and not again on the next render), and the
// report of an entry approved again under `auto` in a build where a lower source stands in for a
// held skill. Real catalogs of host functions, skill sources in memory and MCP servers on
// 127.0.0.1; token counts by characters, so every figure is known.
import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type HostFunction,
  type SkillSource,
} from "../../lib/mod.ts";
import { startToolServer } from "./_servers.ts";
import { listenLocal } from "../mcp/_servers.ts";

const fn = (name: string, description: string): HostFunction => ({
  name,
  description,
  handler: () => name,
});

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
