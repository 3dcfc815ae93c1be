// createToolDiscovery's paths no test reached under mutation: initial skills (activate_skill
// offered, an unknown skill dropped), find_tools' answer word for word (local and remote tools,
// nothing found, a tool already active, the tool limit), its query checks, and calls in either
// format with missing ids, names or arguments. Host functions, a user skill in memory and one real
// MCP server on 127.0.0.1.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type Catalog,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type HostFunction,
  type ToolCallResult,
} from "../../lib/mod.ts";
import { createToolDiscovery } from "../../lib/prompt/mod.ts";
import { startToolServer } from "../catalog/_servers.ts";

const lookup: HostFunction = {
  name: "lookup_sample",
  description: "Find a sample's FASTQ files by sample id",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  handler: ({ id }) => [`${id}_R1.fastq.gz`],
};
const plot: HostFunction = {
  name: "plot_coverage",
  description: "Plot read coverage along a genome",
  inputSchema: { type: "object", properties: {} },
  handler: () => "plotted",
};
const SKILL =
  "---\nname: samtools\ndescription: Sort and index BAM files.\n---\n## Steps\n\nRun samtools sort.\n";

let units: Awaited<ReturnType<typeof startToolServer>>;
let catalog: Catalog;

before(async () => {
  units = await startToolServer([{
    name: "convert_units",
    description: "Convert a quantity between units of length and mass",
    inputSchema: { type: "object", properties: { value: { type: "number" } } },
  }]);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "units", url: units.url });
  catalog = await createCatalog({
    registry,
    resolver: createResolver({
      sources: [createStorageSource({
        label: "user",
        storage: createMemoryStorage({ initial: { "samtools.md": SKILL } }),
      })],
    }),
    functions: [lookup, plot],
    approvals: { storage: createMemoryStorage(), remote: "auto" },
  });
});

after(async () => {
  catalog.dispose();
  await units.close();
});

const find = (query: unknown, id = "f1") => ({
  type: "tool_use" as const,
  id,
  name: "find_tools",
  input: { query },
});
/** The text of a result in the Anthropic format. */
function text(result: ToolCallResult): string {
  assert.equal(result.format, "anthropic");
  if (result.format !== "anthropic") return "";
  return result.reply.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

describe("initial selection", () => {
  test("initial skills offer activate_skill; an unknown skill or tool is dropped", async () => {
    const discovery = await createToolDiscovery({
      catalog,
      initial: { skills: ["samtools", "nope"], tools: ["lookup_sample", "gone"] },
    });
    try {
      assert.deepEqual(discovery.active, ["lookup_sample"]);
      const names = discovery.definitions("anthropic").map((t) => t.name);
      assert.deepEqual(names, ["lookup_sample", "activate_skill", "find_tools"]);
      assert.deepEqual(discovery.advance(), names);
      const activated = await discovery.handle({
        type: "tool_use",
        id: "a1",
        name: "activate_skill",
        input: { name: "samtools" },
      });
      assert.equal(activated.isError, false);
      assert.match(text(activated), /Run samtools sort\./);
    } finally {
      await discovery.close();
    }
  });

  test("without skills there is no activate_skill; find: false offers no find_tools", async () => {
    const discovery = await createToolDiscovery({ catalog, find: false });
    try {
      assert.deepEqual(discovery.advance(), []);
      const refused = await discovery.handle(find("plot coverage"));
      assert.equal(refused.isError, true, "find_tools is not a tool when find is false");
    } finally {
      await discovery.close();
    }
  });
});

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

describe("calls in either format", () => {
  test("OpenAI: arguments as a string, an object, empty or missing; bad JSON is refused", async () => {
    const discovery = await createToolDiscovery({ catalog });
    const call = (args: unknown, id?: string) =>
      discovery.handle(
        {
          ...(id === undefined ? {} : { id }),
          type: "function",
          function: { name: "find_tools", ...(args === undefined ? {} : { arguments: args }) },
        } as never,
      );
    try {
      const asText = await call('{"query":"plot coverage"}', "o1");
      assert.equal(asText.isError, false);
      assert.equal(asText.format === "openai" && asText.reply.tool_call_id, "o1");
      assert.match(asText.format === "openai" ? asText.reply.content : "", /^Found 1:/);
      const asObject = await call({ query: "plot coverage" }, "o2");
      assert.equal(asObject.isError, false);
      for (const args of ["", undefined, "{"]) {
        const refused = await call(args);
        assert.equal(refused.isError, true, `arguments ${JSON.stringify(args)}`);
        assert.equal(refused.format === "openai" && refused.reply.tool_call_id, "");
        assert.equal(
          refused.format === "openai" && refused.reply.content,
          'Error: Invalid arguments for "find_tools": query must be a non-empty string',
        );
      }
      const noFunction = await discovery.handle({ id: "o3", type: "function" } as never);
      assert.equal(noFunction.isError, true, "a call without a function is an error result");
      assert.equal(noFunction.format === "openai" && noFunction.reply.tool_call_id, "o3");
    } finally {
      await discovery.close();
    }
  });

  test("Anthropic: a call without an id answers with an empty id; without a name, no tool", async () => {
    const discovery = await createToolDiscovery({ catalog });
    try {
      const found = await discovery.handle(
        { type: "tool_use", name: "find_tools", input: {} } as never,
      );
      assert.equal(found.format === "anthropic" && found.reply.tool_use_id, "");
      assert.equal(found.id, "find_tools");
      const nameless = await discovery.handle({ type: "tool_use", id: "n1", input: {} } as never);
      assert.equal(nameless.isError, true);
      assert.equal(nameless.format === "anthropic" && nameless.reply.tool_use_id, "n1");
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

describe("sessions and a catalog that changes", () => {
  test("close() closes the session the discovery opened, never one it was given", async () => {
    const initial = { tools: ["units__convert_units"] };
    const call = { type: "tool_use" as const, id: "c1", name: "units__convert_units", input: {} };
    const own = await createToolDiscovery({ catalog, initial });
    const ownCall = await own.handle(call);
    assert.equal(ownCall.isError, false);
    assert.deepEqual(own.session.connected(), ["units"]);
    await own.close();
    assert.deepEqual(own.session.connected(), [], "its own session is closed");

    const lender = await createToolDiscovery({ catalog });
    const given = lender.session;
    const lent = await createToolDiscovery({ catalog, initial, session: given });
    try {
      assert.equal(lent.session, given);
      assert.equal((await lent.handle(call)).isError, false);
      await lent.close();
      assert.deepEqual(given.connected(), ["units"], "a session it was given stays open");
    } finally {
      await lender.close();
    }
    assert.deepEqual(given.connected(), []);
  });

  test("a tool whose server left the catalog is neither added nor offered", async () => {
    const server = await startToolServer([{
      name: "gc_content",
      description: "Compute the GC content of DNA sequences",
      inputSchema: { type: "object", properties: {} },
    }]);
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "gc", url: server.url });
    const changing = await createCatalog({
      registry,
      functions: [plot],
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
    try {
      const found = await createToolDiscovery({ catalog: changing });
      const held = await createToolDiscovery({
        catalog: changing,
        initial: { tools: ["gc__gc_content", "plot_coverage"] },
      });
      assert.match(text(await found.handle(find("GC content DNA sequences"))), /gc__gc_content/);
      await registry.remove("gc");
      await changing.refresh();
      assert.equal(changing.get("gc__gc_content"), undefined);
      assert.deepEqual(found.advance(), ["find_tools"], "found, then gone: not added");
      assert.deepEqual(
        held.definitions("anthropic").map((t) => t.name),
        ["plot_coverage", "find_tools"],
        "active, then gone: not offered",
      );
      await found.close();
      await held.close();
    } finally {
      changing.dispose();
      await server.close();
    }
  });
});
