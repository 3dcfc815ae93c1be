// The find_tools tool of createToolDiscovery, over host functions, a user skill in memory and one
// real MCP tool server on 127.0.0.1: its definition (one required query); its answer word for
// word (a local tool unmarked, a remote one marked with its server and as untrusted, a tool
// already active, over the tool limit, nothing found); its query checks; and the tool limit, the
// kinds taken and the find limit. The rest of the discovery: discovery.test.ts.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Catalog } from "../../lib/mod.ts";
import { createToolDiscovery } from "../../lib/prompt/mod.ts";
import { find, startDiscoveryCatalog, text } from "./_discovery.ts";

let catalog: Catalog;
let close: () => Promise<void>;
before(async () => ({ catalog, close } = await startDiscoveryCatalog()));
after(() => close());

test("the find_tools definition: one required query, nothing else", async () => {
  const discovery = await createToolDiscovery({ catalog });
  try {
    assert.deepEqual(discovery.definitions("openai"), [{
      type: "function",
      function: {
        name: "find_tools",
        description:
          "Search for more tools when none of the tools offered fits the next step. Describe what the tool must do in a few specific words (the data, format or service, and the action). Tools found become callable from your next step.",
        parameters: {
          type: "object",
          properties: {
            query: {
              type: "string",
              description: "What the tool must do, in a few specific words",
            },
          },
          required: ["query"],
          additionalProperties: false,
        },
      },
    }]);
  } finally {
    await discovery.close();
  }
});

describe("find_tools answers", () => {
  test("a local function: its line unmarked, and callable from the next step", async () => {
    const discovery = await createToolDiscovery({ catalog });
    try {
      const found = text(await discovery.handle(find("plot read coverage genome")));
      const lines = found.split("\n");
      assert.equal(lines[0], "Found 1:");
      assert.match(lines[1], /^- plot_coverage: Plot read coverage along a genome \(matched .+\)$/);
      assert.deepEqual(lines.slice(2), ["Callable from your next step: plot_coverage."]);
      assert.deepEqual(discovery.active, []);
      discovery.advance();
      assert.deepEqual(discovery.active, ["plot_coverage"]);
    } finally {
      await discovery.close();
    }
  });

  test("a remote tool is marked with its server and as untrusted", async () => {
    const discovery = await createToolDiscovery({ catalog });
    try {
      const found = text(await discovery.handle(find("convert quantity units length mass")));
      assert.match(
        found,
        /\n- units__convert_units: \[mcp:units, untrusted\] Convert a quantity between units of length and mass \(matched /,
      );
    } finally {
      await discovery.close();
    }
  });

  test("a tool already active is listed but not added again: no note", async () => {
    const discovery = await createToolDiscovery({
      catalog,
      initial: { tools: ["plot_coverage"] },
    });
    try {
      const found = text(await discovery.handle(find("plot read coverage genome")));
      assert.deepEqual(found.split("\n").length, 2, found);
      assert.match(found, /^Found 1:\n- plot_coverage: /);
    } finally {
      await discovery.close();
    }
  });

  test("over the tool limit: found but not added, and said so", async () => {
    const discovery = await createToolDiscovery({
      catalog,
      maxTools: 1,
      initial: { tools: ["lookup_sample"] },
    });
    try {
      const found = text(await discovery.handle(find("plot read coverage genome")));
      assert.equal(
        found.split("\n").at(-1),
        "Not added, the limit of tools is reached: plot_coverage.",
      );
      assert.doesNotMatch(found, /Callable from/);
      discovery.advance();
      assert.deepEqual(discovery.active, ["lookup_sample"]);
    } finally {
      await discovery.close();
    }
  });

  test("nothing found: the query quoted, cleaned and cut, and what to try", async () => {
    const discovery = await createToolDiscovery({ catalog });
    try {
      const query = `zzqx\n${"y".repeat(200)}`;
      const result = await discovery.handle(find(query));
      assert.equal(result.isError, false);
      const shown = text(result);
      assert.match(
        shown,
        /^No tool fits "zzqx y+…?"\. Try other words: the data, format or service, and the action\.$/,
      );
      assert.ok(shown.length < 200, shown);
    } finally {
      await discovery.close();
    }
  });

  test("a query that is empty, not a string or over 500 characters is refused", async () => {
    const discovery = await createToolDiscovery({ catalog });
    try {
      for (const query of ["  ", 42, undefined]) {
        const result = await discovery.handle(find(query));
        assert.equal(result.isError, true);
        assert.equal(
          text(result),
          'Invalid arguments for "find_tools": query must be a non-empty string',
        );
      }
      const long = await discovery.handle(find("plot ".repeat(101)));
      assert.equal(long.isError, true);
      assert.equal(
        text(long),
        'Invalid arguments for "find_tools": query is over 500 characters',
      );
      const edge = await discovery.handle(find(`${"plot ".repeat(99)}plots`)); // 500 characters
      assert.equal(edge.isError, false);
    } finally {
      await discovery.close();
    }
  });
});

describe("the tool limit, the kinds and the find limit", () => {
  test("the initial tools: an MCP tool and a function are taken, a skill is not, up to maxTools", async () => {
    const discovery = await createToolDiscovery({
      catalog,
      maxTools: 2,
      initial: {
        skills: ["plot_coverage"],
        tools: ["samtools", "units__convert_units", "lookup_sample", "plot_coverage"],
      },
    });
    try {
      assert.deepEqual(discovery.active, ["units__convert_units", "lookup_sample"]);
      assert.deepEqual(discovery.advance(), [
        "units__convert_units",
        "lookup_sample",
        "find_tools",
      ], "a tool named as an initial skill offers no activate_skill");
    } finally {
      await discovery.close();
    }
  });

  test("tools found are joined with commas, those added and those over the limit", async () => {
    const query = "plot coverage lookup sample FASTQ files";
    const roomy = await createToolDiscovery({ catalog, maxTools: 3 });
    try {
      const result = await roomy.handle(find(query));
      assert.deepEqual(result.diagnostics, []);
      const lines = text(result).split("\n");
      assert.equal(lines[0], "Found 2:");
      const ids = lines.slice(1, 3).map((l) => l.slice(2, l.indexOf(":")));
      assert.deepEqual([...ids].sort(), ["lookup_sample", "plot_coverage"]);
      assert.deepEqual(lines.slice(3), [`Callable from your next step: ${ids.join(", ")}.`]);
    } finally {
      await roomy.close();
    }
    const full = await createToolDiscovery({
      catalog,
      maxTools: 1,
      initial: { tools: ["units__convert_units"] },
    });
    try {
      const lines = text(await full.handle(find(query))).split("\n");
      const ids = lines.slice(1, 3).map((l) => l.slice(2, l.indexOf(":")));
      assert.deepEqual(lines.slice(3), [
        `Not added, the limit of tools is reached: ${ids.join(", ")}.`,
      ]);
    } finally {
      await full.close();
    }
  });

  test("the tools already found count against the limit, not only the active ones", async () => {
    const discovery = await createToolDiscovery({
      catalog,
      maxTools: 2,
      initial: { tools: ["units__convert_units"] },
    });
    try {
      const lines = text(await discovery.handle(find("plot coverage lookup sample FASTQ files")))
        .split("\n");
      const ids = lines.slice(1, 3).map((l) => l.slice(2, l.indexOf(":")));
      assert.deepEqual(lines.slice(3), [
        `Callable from your next step: ${ids[0]}.`,
        `Not added, the limit of tools is reached: ${ids[1]}.`,
      ]);
      discovery.advance();
      assert.deepEqual(discovery.active, ["units__convert_units", ids[0]]);
    } finally {
      await discovery.close();
    }
  });

  test("limit: 1 answers with the best match only", async () => {
    const discovery = await createToolDiscovery({ catalog, limit: 1 });
    try {
      const lines = text(await discovery.handle(find("plot coverage lookup sample FASTQ files")))
        .split("\n");
      assert.equal(lines[0], "Found 1:");
      assert.equal(lines.length, 3);
    } finally {
      await discovery.close();
    }
  });

  test("a refused query has no diagnostics either", async () => {
    const discovery = await createToolDiscovery({ catalog });
    try {
      const refused = await discovery.handle(find(""));
      assert.equal(refused.isError, true);
      assert.deepEqual(refused.diagnostics, []);
    } finally {
      await discovery.close();
    }
  });
});
