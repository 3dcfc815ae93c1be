// findTools: what an agent's find_tools call answers. The keyword ranker with the evidence floor
// of selection, held entries never offered, one clean line per entry and why it matched.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  type HostFunction,
} from "../../lib/mod.ts";
import { findTools } from "../../lib/catalog/mod.ts";
import { startToolServer, type TestTool } from "./_servers.ts";

const tools: TestTool[] = [
  {
    name: "convert_units",
    description: "Convert a quantity between units\u200b of length,\nmass and temperature",
    inputSchema: { type: "object", properties: { value: { type: "number" } } },
  },
  {
    name: "weather_forecast",
    description: "Weather forecast for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
  },
];

const functions: HostFunction[] = [
  {
    name: "lookup_sample",
    description: "Find a sample's FASTQ files by sample id",
    handler: () => [],
  },
  { name: "send_email", description: "Send an email to a colleague", handler: () => "sent" },
];

let server: Awaited<ReturnType<typeof startToolServer>>;
let catalog: Catalog;
before(async () => {
  server = await startToolServer(tools);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "units", url: server.url });
  catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry,
    functions,
    approvals: { storage: createMemoryStorage(), remote: "require" },
  });
  await catalog.approve(["units__convert_units"]);
});
after(async () => {
  catalog.dispose();
  await server.close();
});

test("finds the fitting tool first, with a clean one-line description and why it matched", () => {
  const found = findTools(catalog, "convert a temperature to other units");
  assert.equal(found[0].id, "units__convert_units");
  assert.equal(found[0].kind, "tool");
  assert.equal(found[0].source, "mcp:units");
  assert.equal(found[0].remote, true);
  assert.equal(
    found[0].description,
    "Convert a quantity between units of length, mass and temperature",
  );
  assert.match(found[0].why, /name: .*units/);
  assert.match(found[0].why, /description: .*temperature/);
  assert.ok(found[0].score > 0);
});

test("a held tool is never found, even when it is the only fit", () => {
  assert.ok(catalog.held.some((h) => h.entry.id === "units__weather_forecast"));
  assert.deepEqual(findTools(catalog, "weather forecast for Paris", { limit: 50 }), []);
  assert.deepEqual(
    findTools(catalog, "weather forecast for Paris", {
      limit: 50,
      kinds: ["tool", "function", "skill"],
    }).filter((f) => f.id === "units__weather_forecast"),
    [],
  );
});

test("the evidence floor of selection: everyday words alone find nothing", () => {
  assert.deepEqual(findTools(catalog, "call a tool to find something"), []);
  assert.deepEqual(findTools(catalog, "   "), []);
  assert.deepEqual(findTools(catalog, 42 as unknown as string), []);
});

test("host functions are found; skills only when asked for; limit is kept", () => {
  assert.equal(findTools(catalog, "fastq files of a sample")[0].id, "lookup_sample");
  assert.deepEqual(findTools(catalog, "sort and index a bam file"), []);
  const skills = findTools(catalog, "sort and index a bam file", { kinds: ["skill"] });
  assert.equal(skills[0]?.id, "samtools");
  assert.equal(skills[0].kind, "skill");
  const one = findTools(catalog, "align reads to a genome", { kinds: ["skill"], limit: 1 });
  assert.equal(one.length, 1);
  assert.deepEqual(findTools(catalog, "fastq files of a sample", { limit: 0 }), []);
});

test("once one entry fits, the near ones follow it at half the floor; when none fits, none is found", () => {
  const ranked = catalog.rank("sort a bam file", { kinds: ["skill"], limit: 5 });
  const near = ranked.find((r) => r.evidence >= 1 && r.evidence < 2);
  assert.ok(near && ranked[0].evidence >= 2, JSON.stringify(ranked.map((r) => r.evidence)));
  const found = findTools(catalog, "sort a bam file", { kinds: ["skill"] }).map((f) => f.id);
  assert.equal(found[0], ranked[0].entry.id);
  assert.ok(found.includes(near.entry.id), found.join());
  // Below half the floor, never.
  const far = ranked.filter((r) => r.evidence < 1).map((r) => r.entry.id);
  assert.ok(far.every((id) => !found.includes(id)));
  // The first entry still needs the whole floor: a homonym alone finds nothing.
  assert.deepEqual(findTools(catalog, "salmon recipe for the oven", { kinds: ["skill"] }), []);
});
