// End to end, under Deno and Node: a registry with a live server-everything + the built-in skills
// + a host function → catalog → selection by a model behind the OpenAI adapter (a local fake API)
// → assembled prompt → the model's tool call executed on the live server → the result in the
// OpenAI and the Anthropic shape. Also checks the labelled request set against the same catalog.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import {
  assemblePrompt,
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  selectForRequest,
} from "../../lib/mod.ts";
import { createOpenAiModel } from "../../lib/catalog/llm/llm.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { openAiAnswer, startFakeLlm } from "../catalog/_servers.ts";

let everything: TestServer;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let catalog: Catalog;

before(async () => {
  everything = await startEverything("streamableHttp");
  llm = await startFakeLlm(() =>
    openAiAnswer(JSON.stringify({
      complexity: "simple",
      skills: ["samtools"],
      tools: ["get-sum", "record_result"], // as listed under "everything:"
      needs_external: false,
      reasoning: "Add with the server, note it for the lab.",
    }))
  );
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "everything", url: everything.url });
  catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry,
    approvals: { storage: createMemoryStorage(), remote: "require" },
    functions: [{
      name: "record_result",
      description: "Record a number in the lab notebook",
      inputSchema: { type: "object", properties: { value: { type: "number" } } },
      handler: ({ value }) => `recorded ${value}`,
    }],
  });
});

after(async () => {
  catalog?.dispose();
  await llm?.close();
  await everything?.close();
});

test("registry + built-ins + host function → selection → prompt → a tool call on the live server", async () => {
  assert.ok(catalog.held.length >= 10, "remote tools wait for approval");
  assert.equal(catalog.get("everything__get-sum"), undefined);
  await catalog.approve(catalog.held.map((h) => h.entry.id));
  assert.ok(catalog.get("everything__get-sum")?.needsConnection);

  const request = "What is 2 + 3? Then tell me how to sort a BAM.";
  const model = createOpenAiModel({ baseUrl: `${llm.url}/v1`, model: "fake", apiKey: "sk-e2e" });
  // The default budget (8,000 tokens) holds the whole catalog: the 86 built-ins and the server's
  // tools need about 5,000. This test is about the flow; trimming has its own tests.
  const selection = await selectForRequest(catalog, request, { llm: model });
  assert.equal(selection.via, "llm");
  assert.deepEqual(selection.skills, ["samtools"]);
  assert.deepEqual(selection.tools, ["everything__get-sum", "record_result"]);
  assert.deepEqual(selection.diagnostics, ['Read "get-sum" as the tool "everything__get-sum"']);
  const sent = llm.requests[0].body as { messages: Array<{ content: string }> };
  assert.match(
    sent.messages[0].content,
    /\neverything:\n(.+\n)*get-sum: Returns the sum of two numbers/,
  );

  const prompt = await assemblePrompt({ request, selection, catalog });
  try {
    assert.deepEqual(prompt.session.connected(), ["everything"]);
    assert.match(prompt.system, /<skill name="samtools" source="builtin">/);
    const sum = prompt.tools.openai.find((t) => t.function.name === "everything__get-sum")!;
    assert.deepEqual(sum.function.parameters.required, ["a", "b"]);
    assert.equal(prompt.tools.anthropic[0].name, "everything__get-sum");

    const openai = await prompt.executeToolCall({
      id: "call_7",
      type: "function",
      function: { name: "everything__get-sum", arguments: '{"a":2,"b":3}' },
    });
    assert.deepEqual(openai.reply, {
      role: "tool",
      tool_call_id: "call_7",
      content: "The sum of 2 and 3 is 5.",
    });
    const anthropic = await prompt.executeToolCall({
      type: "tool_use",
      id: "toolu_7",
      name: "everything__get-sum",
      input: { a: 2, b: 3 },
    });
    assert.deepEqual(anthropic.reply, {
      type: "tool_result",
      tool_use_id: "toolu_7",
      content: [{ type: "text", text: "The sum of 2 and 3 is 5." }],
    });
    const host = await prompt.executeToolCall({
      type: "tool_use",
      id: "toolu_8",
      name: "record_result",
      input: { value: 5 },
    });
    assert.deepEqual(host.content, [{ type: "text", text: "recorded 5" }]);
    const notOffered = await prompt.executeToolCall({
      type: "tool_use",
      id: "toolu_9",
      name: "everything__get-env",
      input: {},
    });
    assert.equal(notOffered.isError, true, "only the offered tools run");
  } finally {
    await prompt.session.close();
  }
});

test("an image result reaches Anthropic as an image block and OpenAI as a note", async () => {
  const prompt = await assemblePrompt({
    request: "show me a tiny image",
    selection: { ...await selectForRequest(catalog, "show me a tiny image"), skills: [] },
    catalog,
  });
  try {
    assert.deepEqual(prompt.loaded.tools.map((t) => t.id), ["everything__get-tiny-image"]);
    const anthropic = await prompt.executeToolCall({
      type: "tool_use",
      id: "t",
      name: "everything__get-tiny-image",
      input: {},
    });
    assert.ok(
      anthropic.format === "anthropic" &&
        anthropic.reply.content.some((b) =>
          b.type === "image" && b.source.media_type === "image/png"
        ),
    );
    const openai = await prompt.executeToolCall({
      id: "c",
      type: "function",
      function: { name: "everything__get-tiny-image", arguments: "{}" },
    });
    assert.match(
      openai.format === "openai" ? openai.reply.content : "",
      /\[image image\/png, \d+ bytes\]/,
    );
  } finally {
    await prompt.session.close();
  }
});

test("every expected id of the labelled request set is in this catalog", async () => {
  const dir = new URL("../fixtures/selection/", import.meta.url);
  const { functions } = JSON.parse(await readFile(new URL("functions.json", dir), "utf8")) as {
    functions: Array<{ name: string }>;
  };
  const requests = (await readFile(new URL("requests.jsonl", dir), "utf8")).trim().split("\n")
    .map((line) => JSON.parse(line) as { expected: string[] | "none" });
  assert.ok(requests.length >= 150);
  assert.ok(requests.filter((r) => r.expected === "none").length >= 30);
  const known = new Set([...catalog.entries.map((e) => e.id), ...functions.map((f) => f.name)]);
  const missing = requests.flatMap((r) => r.expected === "none" ? [] : r.expected)
    .filter((id) => !known.has(id));
  assert.deepEqual(missing, []);
});
