// createToolDiscovery in a hand-written loop: a scripted model calls find_tools, then what it
// found, on real MCP servers. Found tools are callable from the next step only; a held tool (its
// server's tools not approved) is never found, offered or run; deferred Anthropic definitions.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type Catalog,
  createCatalog,
  createMemoryStorage,
  createServerRegistry,
  type HostFunction,
} from "../../lib/mod.ts";
import { createToolDiscovery } from "../../lib/prompt/mod.ts";
import { startToolServer, type TestTool } from "../catalog/_servers.ts";

const unitTools: TestTool[] = [{
  name: "convert_units",
  description: "Convert a quantity between units of length, mass and temperature",
  inputSchema: {
    type: "object",
    properties: { value: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
    required: ["value", "from", "to"],
  },
}];
const shadyTools: TestTool[] = [{
  name: "weather_forecast",
  description: "Weather forecast for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } } },
}];
const lookup: HostFunction = {
  name: "lookup_sample",
  description: "Find a sample's FASTQ files by sample id",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  handler: ({ id }) => [`${id}_R1.fastq.gz`],
};

let units: Awaited<ReturnType<typeof startToolServer>>;
let shady: Awaited<ReturnType<typeof startToolServer>>;
let catalog: Catalog;
before(async () => {
  units = await startToolServer(unitTools);
  shady = await startToolServer(shadyTools);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "units", url: units.url });
  await registry.add({ name: "shady", url: shady.url });
  catalog = await createCatalog({
    registry,
    functions: [lookup],
    approvals: { storage: createMemoryStorage(), remote: "require" },
  });
  await catalog.approve(["units__convert_units"]); // shady's tools stay unapproved
});
after(async () => {
  catalog.dispose();
  await Promise.all([units.close(), shady.close()]);
});

const use = (id: string, name: string, input: Record<string, unknown>) => ({
  type: "tool_use" as const,
  id,
  name,
  input,
});
const text = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((b) => b.text ?? "").join("\n");

test("a scripted model finds a tool, which is callable from the next step and runs on its server", async () => {
  const discovery = await createToolDiscovery({ catalog });
  try {
    assert.deepEqual(discovery.definitions("openai").map((t) => t.function.name), ["find_tools"]);
    const found = await discovery.handle(
      use("c1", "find_tools", { query: "convert a temperature between units" }),
    );
    assert.equal(found.isError, false);
    assert.match(
      text(found),
      /- units__convert_units: \[mcp:units, untrusted\] Convert a quantity/,
    );
    assert.match(text(found), /Callable from your next step: units__convert_units/);
    // Same step: not yet callable.
    const early = await discovery.handle(
      use("c2", "units__convert_units", { value: 1, from: "C", to: "F" }),
    );
    assert.equal(early.isError, true);
    assert.deepEqual(units.calls, []);
    // Next step: offered and callable.
    const names = discovery.definitions("anthropic").map((t) => t.name);
    assert.deepEqual(names, ["units__convert_units", "find_tools"]);
    const ran = await discovery.handle(
      use("c3", "units__convert_units", { value: 1, from: "C", to: "F" }),
    );
    assert.equal(ran.isError, false, text(ran));
    assert.deepEqual(units.calls, ["convert_units"]);
    const bad = await discovery.handle(use("c4", "units__convert_units", { value: "one" }));
    assert.equal(bad.isError, true);
    assert.match(text(bad), /Invalid arguments for "units__convert_units"/);
  } finally {
    await discovery.close();
  }
});

test("a tool of an unapproved server is never found callable, offered or run, but it is said", async () => {
  const discovery = await createToolDiscovery({
    catalog,
    initial: { tools: ["shady__weather_forecast"] },
  });
  try {
    assert.ok(catalog.held.some((h) => h.entry.id === "shady__weather_forecast"));
    assert.deepEqual(discovery.active, []);
    const found = await discovery.handle(
      use("c1", "find_tools", { query: "weather forecast for Paris" }),
    );
    // Never callable, but said: what waits and the command that approves it.
    assert.match(
      text(found),
      /^No callable tool fits "weather forecast for Paris"\. Waiting for a person's approval, not callable: shady__weather_forecast\. If one is needed, ask the user to approve it \(skillmux approve shady__weather_forecast\)\.$/,
    );
    const names = discovery.definitions("anthropic", { deferLoading: true }).map((t) => t.name);
    assert.ok(!names.includes("shady__weather_forecast"), names.join());
    const called = await discovery.handle(
      use("c2", "shady__weather_forecast", { city: "Paris" }),
    );
    assert.equal(called.isError, true);
    assert.deepEqual(shady.calls, []);
  } finally {
    await discovery.close();
  }
});

test("Anthropic deferred definitions: the rest of the catalog, defer_loading, and callable", async () => {
  const discovery = await createToolDiscovery({ catalog, find: false });
  try {
    const defs = discovery.definitions("anthropic", { deferLoading: true });
    assert.deepEqual(
      defs.map((d) => [d.name, d.defer_loading]),
      [["units__convert_units", true], ["lookup_sample", true]],
    );
    const r = await discovery.handle(use("c1", "lookup_sample", { id: "S1" }));
    assert.equal(r.isError, false);
    assert.match(text(r), /S1_R1\.fastq\.gz/);
  } finally {
    await discovery.close();
  }
});

test("find_tools refuses a missing query; the OpenAI call format works the same", async () => {
  const discovery = await createToolDiscovery({ catalog, initial: { tools: ["lookup_sample"] } });
  try {
    const bad = await discovery.handle({
      id: "c1",
      type: "function",
      function: { name: "find_tools", arguments: "{}" },
    });
    assert.equal(bad.isError, true);
    assert.equal(bad.format, "openai");
    const ok = await discovery.handle({
      id: "c2",
      type: "function",
      function: { name: "lookup_sample", arguments: '{"id":"S2"}' },
    });
    assert.equal(ok.isError, false);
    assert.equal(ok.format === "openai" && ok.reply.content, '["S2_R1.fastq.gz"]');
  } finally {
    await discovery.close();
  }
});
