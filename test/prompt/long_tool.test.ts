// executeToolCall and long MCP tools, against server-everything: its timeout is the longest
// silence, so a tool that reports progress runs past it, and a silent one is cut off at it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type Catalog,
  createCatalog,
  createMemoryStorage,
  createServerRegistry,
  executeToolCall,
} from "../../lib/mod.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";

let everything: TestServer;
let catalog: Catalog;
const LONG = "everything__trigger-long-running-operation";

before(async () => {
  everything = await startEverything("streamableHttp");
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "everything", url: everything.url });
  catalog = await createCatalog({ registry, approvals: { storage: createMemoryStorage() } });
  await catalog.approve(catalog.held.map((h) => h.entry.id));
});
after(async () => {
  catalog?.dispose();
  await everything?.close();
});

const call = (input: Record<string, unknown>) => ({
  type: "tool_use" as const,
  id: "toolu_1",
  name: LONG,
  input,
});

test("a tool reporting progress runs past timeoutMs; a silent one is cut off at it", async () => {
  const long = await executeToolCall(call({ duration: 4, steps: 4 }), {
    catalog,
    timeoutMs: 2_000,
  });
  assert.equal(long.isError, false, JSON.stringify(long.reply));
  assert.match(JSON.stringify(long.reply), /Duration: 4 seconds/);
  const silent = await executeToolCall(call({ duration: 3, steps: 1 }), {
    catalog,
    timeoutMs: 1_000,
  });
  assert.equal(silent.isError, true);
  assert.match(JSON.stringify(silent.reply), /no answer and no progress for 1000 ms/);
});
