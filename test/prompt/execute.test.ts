// executeToolCall on host functions and a real MCP tool server on 127.0.0.1, through the public
// API: how each call shape is read (OpenAI arguments as text, empty, an object or not; Anthropic
// input that must be an object), the reply in each format with its call id, argument errors naming
// where they are (at most five), the schema draft named by `$schema` (and no `$schema` in the tool
// definitions), an unknown name cut to 80 characters, a prompt that offered no tools running none,
// and a host function that never settles ending after timeoutMs.
// Over 300 lines: one entry point, each call shape with the fixture it needs.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  assemblePrompt,
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  executeToolCall,
  type Selection,
} from "../../lib/mod.ts";
import { startToolServer } from "../catalog/_servers.ts";

describe("call shapes, replies and argument errors", () => {
  let catalog: Catalog;
  const seen: unknown[] = [];

  before(async () => {
    catalog = await createCatalog({
      resolver: createResolver({ sources: [] }),
      registry: createServerRegistry({ storage: createMemoryStorage() }),
      functions: [
        {
          name: "echo_args",
          description: "Returns its arguments",
          handler: (args) => (seen.push(args), args),
        },
        {
          name: "say",
          description: "Returns a text",
          inputSchema: { type: "object", properties: { text: { type: "string" } } },
          handler: (args) => String(args.text),
        },
        {
          name: "nothing",
          description: "Returns undefined",
          handler: () => undefined,
        },
        {
          name: "strict",
          description: "Six required numbers",
          inputSchema: {
            type: "object",
            properties: Object.fromEntries(
              ["a", "b", "c", "d", "e", "f"].map((k) => [k, { type: "number" }]),
            ),
            required: ["a"],
          },
          handler: () => "ok",
        },
        {
          name: "draft4",
          description: "exclusiveMaximum as draft-04 reads it",
          inputSchema: {
            $schema: "http://json-schema.org/draft-04/schema#",
            type: "object",
            properties: { n: { type: "number", maximum: 5, exclusiveMaximum: true } },
          } as never,
          handler: () => "ok",
        },
        {
          name: "ahead",
          description: "a local pattern with a lookahead, which the linear engine has not",
          inputSchema: {
            type: "object",
            properties: { id: { type: "string", pattern: "^(?!tmp_)\\w+$" } },
          },
          handler: () => "ok",
        },
        {
          name: "loop",
          description: "a property whose $ref is itself",
          inputSchema: {
            type: "object",
            properties: { a: { $ref: "#/properties/a" } },
          } as never,
          handler: () => "ok",
        },
        {
          name: "nothing_fits",
          description: "an empty anyOf: its errors are all wrappers (properties, anyOf)",
          inputSchema: { type: "object", properties: { a: { anyOf: [] } } } as never,
          handler: () => "ok",
        },
        // A $ref's sibling keywords: ignored up to draft-07, applied from 2019-09 (the default).
        {
          name: "draft7",
          description: "a $ref beside maxLength, as draft-07 reads it",
          inputSchema: {
            $schema: "http://json-schema.org/draft-07/schema#",
            type: "object",
            definitions: { s: { type: "string" } },
            properties: { a: { $ref: "#/definitions/s", maxLength: 2 } },
          } as never,
          handler: () => "ok",
        },
        {
          name: "draft2020",
          description: "a $ref beside maxLength, as 2020-12 reads it",
          inputSchema: {
            type: "object",
            $defs: { s: { type: "string" } },
            properties: { a: { $ref: "#/$defs/s", maxLength: 2 } },
          } as never,
          handler: () => "ok",
        },
      ],
    });
  });
  after(() => catalog.dispose());

  const openai = (name: string, args: unknown) => ({
    id: "call_1",
    type: "function" as const,
    function: { name, arguments: args as string },
  });

  test("OpenAI arguments: text, empty text, an object; anything else is refused", async () => {
    seen.length = 0;
    for (const args of ['{"x":1}', "", { y: 2 }]) {
      const result = await executeToolCall(openai("echo_args", args), { catalog });
      assert.equal(result.isError, false, JSON.stringify(result));
    }
    assert.deepEqual(seen, [{ x: 1 }, {}, { y: 2 }]);
    for (const args of ["[1]", "null", "7", "{oops", ["x"]]) {
      const result = await executeToolCall(openai("echo_args", args), { catalog });
      assert.deepEqual(result.reply, {
        role: "tool",
        tool_call_id: "call_1",
        content: 'Error: Tool "echo_args": arguments must be a JSON object',
      }, JSON.stringify(args));
    }
    assert.equal(seen.length, 3, "the handler never ran on them");
  });

  test("Anthropic input must be an object; replies carry the call id in both formats", async () => {
    for (const input of [[1], "x", null]) {
      const result = await executeToolCall(
        { type: "tool_use", id: "toolu_9", name: "echo_args", input } as never,
        { catalog },
      );
      assert.equal(result.isError, input === null ? false : true, JSON.stringify(input));
      if (input !== null) {
        assert.deepEqual(result.reply, {
          type: "tool_result",
          tool_use_id: "toolu_9",
          content: [{ type: "text", text: 'Tool "echo_args": input must be an object' }],
          is_error: true,
        });
      }
    }
    const ok = await executeToolCall(
      { type: "tool_use", id: "toolu_1", name: "say", input: { text: "hi" } },
      { catalog },
    );
    assert.deepEqual(ok.reply, {
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: [{ type: "text", text: "hi" }],
    });
    const text = await executeToolCall(openai("echo_args", '{"k":[1,"two"]}'), { catalog });
    assert.deepEqual(text.reply, {
      role: "tool",
      tool_call_id: "call_1",
      content: '{"k":[1,"two"]}',
    });
    const none = await executeToolCall(openai("nothing", "{}"), { catalog });
    assert.equal((none.reply as { content: string }).content, "null");
  });

  test("argument errors say where, at most five; the schema's draft is the one it names", async () => {
    const wrong = await executeToolCall(
      openai("strict", JSON.stringify({ b: "x", c: "x", d: "x", e: "x", f: "x" })),
      { catalog },
    );
    const content = (wrong.reply as { content: string }).content;
    assert.match(content, /^Error: Invalid arguments for "strict": /);
    const problems = content.replace(/^Error: Invalid arguments for "strict": /, "").split("; ");
    assert.equal(problems.length, 5, content);
    assert.ok(problems.some((p) => p.startsWith("arguments: ")), content);
    assert.ok(problems.some((p) => p.startsWith("/b: ")), content);
    const four = await executeToolCall(openai("draft4", '{"n":5}'), { catalog });
    assert.equal(four.isError, true, "draft-04: exclusiveMaximum true excludes 5");
    assert.match(
      (four.reply as { content: string }).content,
      /^Error: Invalid arguments for "draft4": \/n: /,
    );
    const fine = await executeToolCall(openai("draft4", '{"n":4}'), { catalog });
    assert.equal(fine.isError, false);
    const seven = await executeToolCall(openai("draft7", '{"a":"abcd"}'), { catalog });
    assert.equal(seven.isError, false, "draft-07: a $ref's siblings are ignored");
    const latest = await executeToolCall(openai("draft2020", '{"a":"abcd"}'), { catalog });
    assert.match(
      (latest.reply as { content: string }).content,
      /^Error: Invalid arguments for "draft2020": \/a: /,
      "no $schema: 2020-12, where a $ref's siblings apply",
    );
  });

  test("an unknown tool is named cut to 80 characters", async () => {
    const name = `x${"y".repeat(100)}`;
    const result = await executeToolCall(openai(name, "{}"), { catalog });
    assert.equal(
      (result.reply as { content: string }).content,
      `Error: There is no tool "${name.slice(0, 80)}" here; use one of the tools offered`,
    );
    const skill = await executeToolCall(openai("activate_skill", '{"name":"nope"}'), {
      catalog,
      skills: ["a", "b"],
    });
    assert.equal(
      (skill.reply as { content: string }).content,
      'Error: No skill "nope" to activate; choose one of: a, b',
    );
  });

  test("a local schema's patterns are JavaScript's (a lookahead works); a $ref to itself is said", async () => {
    const fine = await executeToolCall(openai("ahead", '{"id":"sample_1"}'), { catalog });
    assert.equal(fine.isError, false, JSON.stringify(fine.reply));
    const refused = await executeToolCall(openai("ahead", '{"id":"tmp_1"}'), { catalog });
    assert.equal(
      (refused.reply as { content: string }).content,
      'Error: Invalid arguments for "ahead": /id: String does not match pattern.',
    );
    const loop = await executeToolCall(openai("loop", '{"a":1}'), { catalog });
    assert.equal(
      (loop.reply as { content: string }).content,
      'Error: Invalid arguments for "loop": the input schema of "loop" cannot be checked: ' +
        "it never ends (a $ref cycle or nesting too deep)",
    );
  });

  test("errors with no leaf keyword are said as they are, never read as valid", async () => {
    const result = await executeToolCall(openai("nothing_fits", '{"a":1}'), { catalog });
    assert.equal(
      (result.reply as { content: string }).content,
      'Error: Invalid arguments for "nothing_fits": arguments: Property "a" does not match schema.; ' +
        "/a: Instance does not match any subschemas.",
    );
  });
});

describe("tool definitions, offered tools and timeouts", () => {
  let tools: Awaited<ReturnType<typeof startToolServer>>;
  let catalog: Catalog;
  const ran: string[] = [];

  before(async () => {
    tools = await startToolServer([{
      name: "convert",
      description: "Convert a file",
      inputSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { path: { type: "string" } },
      } as { type: "object" },
    }]);
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "conv", url: tools.url });
    catalog = await createCatalog({
      resolver: createResolver({ sources: [createBuiltinSource()] }),
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
      functions: [
        {
          name: "lookup_sample",
          description: "Find a sample's FASTQ files",
          handler: () => (ran.push("lookup_sample"), "found"),
        },
        {
          name: "never_settles",
          description: "Waits forever",
          handler: () => (ran.push("never_settles"), new Promise(() => {})),
        },
      ],
    });
  });

  after(async () => {
    catalog.dispose();
    await tools.close();
  });

  const selection = (skills: string[], toolIds: string[]): Selection => ({
    via: "llm",
    complexity: "simple",
    skills,
    tools: toolIds,
    needsExternal: false,
    reasoning: "",
    diagnostics: [],
  });

  test("OpenAI and Anthropic tool definitions carry no $schema", async () => {
    assert.ok(catalog.get("conv__convert")?.inputSchema?.$schema, "the server's schema has one");
    const prompt = await assemblePrompt({
      request: "convert it",
      selection: selection([], ["conv__convert"]),
      catalog,
    });
    await prompt.session.close();
    const [openai] = prompt.tools.openai;
    const [anthropic] = prompt.tools.anthropic;
    assert.equal(openai.function.name, "conv__convert");
    assert.equal("$schema" in openai.function.parameters, false);
    assert.equal("$schema" in anthropic.input_schema, false);
    assert.equal(openai.function.parameters.type, "object");
  });

  test("a prompt that offered no tools lets the model call none: the handler never runs", async () => {
    const prompt = await assemblePrompt({
      request: "hello",
      selection: selection([], []),
      catalog,
    });
    ran.length = 0;
    try {
      assert.deepEqual(prompt.tools.openai, []);
      const result = await prompt.executeToolCall({
        type: "tool_use",
        id: "t1",
        name: "lookup_sample",
        input: {},
      });
      assert.equal(result.isError, true);
      assert.deepEqual(ran, []);
    } finally {
      await prompt.session.close();
    }
  });

  test("a host function that never settles ends as an error result after timeoutMs", async () => {
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<"stuck">((resolve) => (timer = setTimeout(resolve, 5_000, "stuck")));
    const result = await Promise.race([
      executeToolCall(
        { type: "tool_use", id: "t1", name: "never_settles", input: {} },
        { catalog, timeoutMs: 150 },
      ),
      stuck,
    ]);
    clearTimeout(timer);
    assert.notEqual(result, "stuck", "the call must end by itself");
    if (result === "stuck") return;
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.reply), /did not finish within 150 ms/);
    assert.ok(Date.now() - started < 4_000);
  });
});
