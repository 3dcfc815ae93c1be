// findTools: what an agent's find_tools call answers. The keyword ranker with the evidence floor
// of selection, held entries never offered, one clean line per entry and why it matched (each
// field's words once, in the query's first spelling; the server's name as a keyword); the limit
// (default, floor, cap, nonsense), an empty or oversized query, the kinds asked for, an entry at
// exactly the evidence floor, the score rounded. Real catalogs of host functions, built-in skills
// and MCP servers on 127.0.0.1.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  type HostFunction,
} from "../../../lib/mod.ts";
import { findTools } from "../../../lib/catalog/mod.ts";
import { startToolServer, type TestTool } from "../_servers.ts";
import { startLabkit } from "../_labkit.ts";

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

const samples: HostFunction[] = Array.from({ length: 60 }, (_, i) => ({
  name: `sample_${String(i).padStart(2, "0")}`,
  description: `Look up stored sample number ${i}`,
  handler: () => i,
}));
/** Sixty stored samples, an email function and the built-in skills. */
const sampled = await createCatalog({
  resolver: createResolver({ sources: [createBuiltinSource()] }),
  functions: [
    ...samples,
    {
      name: "send_email",
      description: "Send an email message to a colleague",
      tags: ["mail", "notify"],
      handler: () => "sent",
    },
  ],
});

test("limit: 5 by default, floored, at most 50; zero, negative or nonsense", () => {
  assert.equal(findTools(sampled, "stored sample").length, 5);
  assert.equal(findTools(sampled, "stored sample", { limit: 2.9 }).length, 2);
  assert.equal(findTools(sampled, "stored sample", { limit: 1_000 }).length, 50);
  assert.equal(findTools(sampled, "stored sample", { limit: 50 }).length, 50);
  assert.equal(findTools(sampled, "stored sample", { limit: 0 }).length, 0);
  assert.equal(findTools(sampled, "stored sample", { limit: -3 }).length, 0);
  assert.equal(findTools(sampled, "stored sample", { limit: Number.NaN }).length, 5);
  assert.equal(findTools(sampled, "stored sample", { limit: Infinity }).length, 5);
});

test("an empty query finds nothing; a long one is read up to 2,000 characters", () => {
  assert.deepEqual(findTools(sampled, "   "), []);
  assert.deepEqual(findTools(sampled, 7 as unknown as string), []);
  const padded = `${"zz ".repeat(700)}email colleague`;
  assert.equal(padded.indexOf("email") > 2_000, true);
  assert.deepEqual(findTools(sampled, padded), []);
  assert.equal(findTools(sampled, `email colleague ${"zz ".repeat(700)}`)[0].id, "send_email");
});

test("the kinds asked for: tools and functions by default, skills on request", () => {
  assert.deepEqual(findTools(sampled, "sort and index a BAM file"), []);
  const skills = findTools(sampled, "sort and index a BAM file", { kinds: ["skill"] });
  assert.equal(skills[0].id, "samtools");
  assert.equal(skills[0].kind, "skill");
  assert.equal(skills[0].source, "builtin");
  assert.equal(skills[0].remote, false);
});

test("why: each field's words once, as the query wrote them; the score rounded", () => {
  const [found] = findTools(sampled, "Emails to notify a colleague by mail", { limit: 1 });
  assert.equal(found.id, "send_email");
  assert.equal(found.description, "Send an email message to a colleague");
  assert.equal(found.why, "name: emails; tags: notify, mail; description: colleague");
  assert.equal(found.score, Math.round(found.score * 100) / 100);
  assert.ok(found.score > 0);
});

describe("why, the floor and the score, beside an MCP server", () => {
  let catalog: Catalog;
  let close: () => Promise<void>;
  before(async () => ({ catalog, close } = await startLabkit()));
  after(() => close());

  test("findTools: why names the query's first spelling of a word, and the server as a keyword", () => {
    const [found] = findTools(catalog, "labkit: convert Units to another unit");
    assert.equal(found.id, "labkit__convert_units");
    assert.equal(found.why, "name: convert, units; keywords: labkit");
  });

  test("findTools: an entry with exactly the evidence floor (2) is found", async () => {
    // A host function with a description only: a word there that no other entry holds weighs like a
    // tag, 2 (its specificity is 1). Over the built-ins, "fastq" alone no longer is that word: dozens
    // of skills hold it, and a lone common word is not enough (issue 47).
    const small = await createCatalog({
      functions: [
        { name: "lookup_sample", description: "Find a sample's FASTQ reads", handler: () => [] },
        { name: "other", description: "Send a message", handler: () => "" },
      ],
    });
    const [hit] = small.rank("fastq", { kinds: ["function"] });
    assert.equal(hit.entry.id, "lookup_sample");
    assert.equal(hit.evidence, 2);
    assert.deepEqual(findTools(small, "fastq").map((f) => f.id), ["lookup_sample"]);
    small.dispose();
  });

  test("findTools: the score is rank's BM25+ score rounded to two decimals", () => {
    const query = "convert units of length";
    const ranked = catalog.rank(query, { limit: 100, kinds: ["tool", "function"] });
    const found = findTools(catalog, query);
    assert.ok(found.length > 0);
    for (const f of found) {
      const score = ranked.find((r) => r.entry.id === f.id)!.score;
      assert.equal(f.score, Math.round(score * 100) / 100);
    }
    assert.notEqual(found[0].score, Math.round(found[0].score), "a score with decimals");
  });
});
