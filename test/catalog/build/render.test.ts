// The catalog's listing (render, lib/catalog/build/_render.ts): a line per entry (the first sentence of
// a long description, five tags, a remote skill's source), groups in kind order with a line per
// server and the omission note, tool ids shown whole when they do not start with their server's
// name, remote definitions a host can adjust, byte-identical across builds, and a budget that
// holds on 2,000 entries. Real catalogs of host functions, skills in memory and an MCP server on
// 127.0.0.1. Within a token budget, rule by rule: render_budget.test.ts.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  assemblePrompt,
  connect,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createStorageSource,
} from "../../../lib/mod.ts";
import { countTokens } from "../../../lib/catalog/mod.ts";
import { entryLine, renderLines } from "../../../lib/catalog/build/_render.ts";
import type { CatalogEntry } from "../../../lib/catalog/model/types.ts";
import { startToolServer } from "../_servers.ts";
import { selection } from "../../_selection.ts";
import { fn } from "../_entries.ts";

const chars = (text: string) => text.length;
/** Remote entries usable at once (the default holds them until approved). */
const approvals = () => ({ storage: createMemoryStorage(), remote: "auto" as const });

const entry = (
  fields: Partial<CatalogEntry> & Pick<CatalogEntry, "id" | "kind">,
): CatalogEntry => ({
  name: fields.id,
  description: "",
  source: "user",
  tags: [],
  keywords: [],
  needsConnection: false,
  remote: false,
  digest: "d",
  approval: "approved",
  ...fields,
});

describe("the listing", () => {
  test("a line: the first sentence of a long description, five tags, a remote skill's source", () => {
    const long = `Sorts BAM files by coordinate. ${"More words here. ".repeat(12)}`;
    assert.equal(
      entryLine(entry({
        id: "samtools",
        kind: "skill",
        description: long,
        tags: ["a", "b", "c", "d", "e", "f"],
        source: "mcp:team",
      })),
      "samtools: Sorts BAM files by coordinate. [a, b, c, d, e] (from mcp:team)",
    );
    assert.equal(entryLine(entry({ id: "s", kind: "skill", description: "Short." })), "s: Short.");
    // No description: the title, else the name.
    assert.equal(entryLine(entry({ id: "t", kind: "skill", title: "Title" })), "t: Title");
    assert.equal(entryLine(entry({ id: "n", kind: "function", name: "n" })), "n: n");
    // Tools: without their server prefix; tags and sources are a skill's only.
    assert.equal(
      entryLine(entry({
        id: "demo__echo",
        kind: "tool",
        server: "demo",
        description: "Echo.",
        tags: ["x"],
        source: "mcp:demo",
      })),
      "echo: Echo.",
    );
    // An id that does not start with its server's prefix, or is only the prefix, stays whole.
    assert.equal(
      entryLine(entry({ id: "demo__", kind: "tool", server: "demo", description: "D." })),
      "demo__: D.",
    );
    assert.equal(
      entryLine(entry({ id: "x_1", kind: "tool", server: "demo", description: "D." })),
      "x_1: D.",
    );
  });

  test("groups in kind order, a line per server, the omission note in singular and plural", () => {
    const shown = [
      entry({ id: "f", kind: "function", description: "F." }),
      entry({ id: "a__t", kind: "tool", server: "a", description: "T." }),
      entry({ id: "a__u", kind: "tool", server: "a", description: "U." }),
      entry({ id: "b__t", kind: "tool", server: "b", description: "T." }),
      entry({ id: "s", kind: "skill", description: "S." }),
    ];
    assert.equal(
      renderLines(shown, 1),
      [
        "Skills (know-how documents; pick by id):",
        "s: S.",
        "MCP tools by server (id: <server>__<tool>):",
        "a:",
        "t: T.",
        "u: U.",
        "b:",
        "t: T.",
        "Functions of this application:",
        "f: F.",
        "(1 more entry left out to fit the token budget)",
        "",
      ].join("\n"),
    );
    assert.equal(
      renderLines([], 3),
      "(no entries)\n(3 more entries left out to fit the token budget)\n",
    );
    assert.equal(renderLines([], 0), "(no entries)\n");
  });
});

describe("rendering", () => {
  const skills = {
    "samtools.md":
      "---\nname: samtools\ndescription: Sorts and indexes BAM files. Use when handling alignments.\ntags: [bam, sort]\n---\nbody\n",
    "fastqc.md":
      "---\nname: fastqc\ndescription: Quality reports for FASTQ reads. Use before trimming.\ntags: [qc]\n---\nbody\n",
  };
  const build = () =>
    createCatalog({
      resolver: createResolver({
        sources: [
          createStorageSource({ label: "user", storage: createMemoryStorage({ initial: skills }) }),
        ],
      }),
      functions: [fn("notify_user", "Send a chat message to the user.\nSecond line.")],
    });

  test("is byte-identical across builds and runtimes", async () => {
    const first = await (await build()).render();
    const second = await (await build()).render();
    assert.equal(first.text, second.text);
    assert.equal(
      first.text,
      [
        "Skills (know-how documents; pick by id):",
        "fastqc: Quality reports for FASTQ reads. Use before trimming. [qc]",
        "samtools: Sorts and indexes BAM files. Use when handling alignments. [bam, sort]",
        "Functions of this application:",
        "notify_user: Send a chat message to the user. Second line.",
        "",
      ].join("\n"),
    );
    assert.equal(first.tokens, await countTokens(first.text));
    assert.deepEqual(first.ids, ["fastqc", "samtools", "notify_user"]);
  });

  test("the budget holds on a catalog of 2,000 entries and keeps the relevant ones", async () => {
    const topics = ["variant calling", "read alignment", "quality control", "peak calling"];
    const functions = Array.from(
      { length: 2_000 },
      (_, i) =>
        fn(`fn_${i}`, `Function ${i} helps with ${topics[i % topics.length]} of sample ${i}.`),
    );
    const catalog = await createCatalog({ functions });
    const whole = await catalog.render();
    assert.ok(whole.tokens > 20_000);
    for (const budget of [500, 3_000]) {
      const rendered = await catalog.render({ budget, request: "peak calling" });
      assert.ok(rendered.tokens <= budget, `${rendered.tokens} > ${budget}`);
      assert.equal(rendered.tokens, await countTokens(rendered.text));
      assert.equal(rendered.ids.length + rendered.omitted, 2_000);
      assert.ok(rendered.omitted > 0);
      assert.match(rendered.text, new RegExp(`\\(${rendered.omitted} more entries left out`));
      const shown = rendered.ids.map((id) => catalog.get(id)!);
      assert.ok(shown.every((e) => e.description.includes("peak calling")), "best matches first");
    }
    await assert.rejects(catalog.render({ budget: 5 }), RangeError);
  });
});

describe("tool ids in the listing", () => {
  let server: Awaited<ReturnType<typeof startToolServer>>;
  before(async () =>
    server = await startToolServer([{
      name: "echo",
      description: "Echoes back the text it is given",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", description: "What to echo", title: "Text" } },
      },
    }])
  );
  after(() => server.close());

  test("shown whole when the id does not start with the server's name; a function's always", async () => {
    // A server name with a dot cannot be part of an id: the id reads `lab_tools__echo_<hash>`, and
    // the model must see it whole, not cut after as many characters as `lab.tools__` has.
    const client = await connect({ name: "lab.tools", url: server.url });
    try {
      const catalog = await createCatalog({
        clients: [client],
        functions: [fn("undefined__lookup", "Look a sample up")],
        approvals: approvals(),
      });
      const rendered = await catalog.render({ countTokens: chars });
      const tool = rendered.ids[0];
      assert.match(tool, /^lab_tools__echo_[0-9a-f]{8}$/);
      assert.equal(
        rendered.text,
        [
          "MCP tools by server (id: <server>__<tool>):",
          "lab.tools:",
          `${tool}: Echoes back the text it is given`,
          "Functions of this application:",
          "undefined__lookup: Look a sample up",
          "",
        ].join("\n"),
      );
    } finally {
      await client.close();
    }
  });

  test("a remote tool's definitions are plain objects a host can adjust (e.g. for strict mode)", async () => {
    const client = await connect({ name: "lab", url: server.url });
    try {
      const catalog = await createCatalog({ clients: [client], approvals: approvals() });
      const prompt = await assemblePrompt({
        request: "echo hello",
        selection: selection([], ["lab__echo"]),
        catalog,
      });
      try {
        const parameters = prompt.tools.openai[0].function.parameters as {
          properties: Record<string, Record<string, unknown>>;
        };
        const text = parameters.properties.text;
        assert.deepEqual({ ...text }, {
          type: "string",
          description: "What to echo",
          title: "Text",
        });
        // What OpenAI's strict mode asks: every property required, optional ones nullable.
        text.type = ["string", "null"];
        delete text.title;
        assert.deepEqual(prompt.tools.anthropic[0].input_schema.properties, {
          text: { type: ["string", "null"], description: "What to echo" },
        });
        // The catalog's own entry is not touched.
        assert.deepEqual(catalog.get("lab__echo")?.inputSchema?.properties, {
          text: { type: "string", description: "What to echo", title: "Text" },
        });
      } finally {
        await prompt.session.close();
      }
    } finally {
      await client.close();
    }
  });
});
