// createToolDiscovery in a hand-written loop: a scripted model calls find_tools, then what it
// found, on real MCP servers. Found tools are callable from the next step only; a held tool (its
// server's tools not approved) is never found, offered or run; deferred Anthropic definitions.
// Over a catalog of host functions, a user skill and a tool server (_discovery.ts): the initial
// selection (activate_skill offered or not), calls in either format with missing parts, and the
// session the discovery opens. Over 300 lines: one component. find_tools' answers:
// find_tools.test.ts.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type Catalog,
  createCatalog,
  createMemoryStorage,
  createServerRegistry,
  type HostFunction,
} from "../../lib/mod.ts";
import { createToolDiscovery } from "../../lib/prompt/mod.ts";
import { startToolServer, type TestTool } from "../catalog/_servers.ts";
import { find, plot, startDiscoveryCatalog, text as resultText } from "./_discovery.ts";

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

describe("initial selection, call formats and sessions", () => {
  const text = resultText;
  let catalog: Catalog;
  let close: () => Promise<void>;
  before(async () => ({ catalog, close } = await startDiscoveryCatalog()));
  after(() => close());

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
});
