// @skillmux/core/ai-sdk with the real AI SDK: generateText drives the SDK's own mock language
// model (ai/test), which calls an MCP tool on a live server-everything and a host function.
// Every call runs through skillmux: bad arguments answered as an error, a held tool and a tool of
// an unapproved server never run, the step's abort cancels the call, images reach the model as
// image parts; discovery makes what find_tools found active from the next step.
import assert from "node:assert/strict";
import { test } from "node:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { aiSdkTools } from "../../lib/frameworks/ai_sdk.ts";
import { createCatalog, createMemoryStorage, createServerRegistry } from "../../lib/mod.ts";
import { startEverything } from "../mcp/_servers.ts";
import { selection } from "../_selection.ts";
import { frameworkSuite, waits } from "./_scripted.ts";

const suite = frameworkSuite();

type Options = MockLanguageModelV4["doGenerateCalls"][number];
type Call = { name: string; input: unknown };

/** A model that answers step n with `script[n]` (tool calls, or text when it is a string). */
function scripted(script: Array<Call[] | string | ((options: Options) => Call[] | string)>) {
  let step = 0;
  const model: MockLanguageModelV4 = new MockLanguageModelV4({
    doGenerate: (options) => {
      const next = script[Math.min(step++, script.length - 1)];
      const planned = typeof next === "function" ? next(options) : next;
      const usage = {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      };
      if (typeof planned === "string") {
        return Promise.resolve({
          content: [{ type: "text", text: planned }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        });
      }
      return Promise.resolve({
        content: planned.map((c, i) => ({
          type: "tool-call" as const,
          toolCallId: `call_${step}_${i}`,
          toolName: c.name,
          input: JSON.stringify(c.input),
        })),
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      });
    },
  });
  return model;
}

/** The tool names the model was offered in each step. */
const offered = (model: MockLanguageModelV4) =>
  model.doGenerateCalls.map((c) => (c.tools ?? []).map((t) => t.name));

/** Each tool result and error of a run, by tool name. */
type Outcome = { name: string; output?: { isError: boolean; text: string }; error?: string };
function outcomes(result: Awaited<ReturnType<typeof generateText>>): Outcome[] {
  return result.steps.flatMap((s) =>
    s.content.flatMap((p): Outcome[] =>
      p.type === "tool-result"
        ? [{ name: p.toolName, output: p.output as { isError: boolean; text: string } }]
        : p.type === "tool-error"
        ? [{ name: p.toolName, error: String((p.error as Error)?.message ?? p.error) }]
        : []
    )
  );
}

test("an MCP tool and a host function run through skillmux; bad arguments are an error; images become image parts", async () => {
  const catalog = suite.catalog();
  const request = "add 2 and 3, record it, show the logo";
  const sm = await aiSdkTools({
    catalog,
    request,
    selection: selection([], [
      "everything__get-sum",
      "record_result",
      "everything__get-tiny-image",
    ]),
  });
  try {
    assert.deepEqual(Object.keys(sm.tools).sort(), [
      "everything__get-sum",
      "everything__get-tiny-image",
      "record_result",
    ]);
    assert.match(sm.system, /everything__get-sum \(mcp:everything, untrusted description\)/);
    const model = scripted([
      [
        { name: "everything__get-sum", input: { a: 2, b: 3 } },
        { name: "record_result", input: { value: 5 } },
        { name: "everything__get-tiny-image", input: {} },
        { name: "everything__get-sum", input: { a: "two" } },
      ],
      "The sum is 5.",
    ]);
    const result = await generateText({
      model,
      system: sm.system,
      prompt: request,
      tools: sm.tools,
      stopWhen: stepCountIs(4),
    });
    assert.equal(result.text, "The sum is 5.");
    const [sum, recorded, image, bad] = outcomes(result) as Array<
      { name: string; output: { isError: boolean; text: string; images: unknown[] } }
    >;
    assert.deepEqual([sum.output.isError, sum.output.text], [false, "The sum of 2 and 3 is 5."]);
    assert.deepEqual([recorded.output.isError, recorded.output.text], [false, "recorded 5"]);
    assert.equal(image.output.images.length, 1);
    assert.equal(bad.output.isError, true);
    assert.match(bad.output.text, /Invalid arguments for "everything__get-sum"/);
    // What the model saw in step 2: the error as error text, the image as an image part.
    const tool = model.doGenerateCalls[1].prompt.find((m) => m.role === "tool")!;
    const parts = tool.content as Array<{ type: string; output: { type: string; value: unknown } }>;
    assert.equal(parts[3].output.type, "error-text");
    assert.equal(parts[2].output.type, "content");
    assert.match(JSON.stringify(parts[2].output.value), /"mediaType":"image\/png"/);
  } finally {
    await sm.close();
  }
});

test("a held tool and a tool of an unapproved server are never offered and never run", async () => {
  const catalog = suite.catalog();
  const request = "print the environment and the weather";
  const sm = await aiSdkTools({
    catalog,
    request,
    selection: selection([], ["everything__get-env", "shady__weather_forecast", "record_result"]),
  });
  try {
    assert.deepEqual(Object.keys(sm.tools), ["record_result"]);
    assert.ok(
      sm.diagnostics.some((d) => /"everything__get-env" is held until approved/.test(d.message)),
    );
    const model = scripted([
      [
        { name: "everything__get-env", input: {} },
        { name: "shady__weather_forecast", input: { city: "Paris" } },
      ],
      "Cannot.",
    ]);
    const result = await generateText({
      model,
      prompt: request,
      tools: sm.tools,
      stopWhen: stepCountIs(3),
    });
    const seen = outcomes(result);
    assert.equal(seen.filter((o) => "output" in o).length, 0, JSON.stringify(seen));
    assert.deepEqual(suite.shadyCalls(), []);
  } finally {
    await sm.close();
  }
});

test("aborting the step cancels the running tool call", async () => {
  const catalog = suite.catalog();
  const request = "wait for the sequencing instrument";
  const sm = await aiSdkTools({
    catalog,
    request,
    selection: selection([], ["wait_for_instrument"]),
  });
  const before = { started: waits.started, reasons: waits.reasons.length };
  const controller = new AbortController();
  try {
    const model = scripted([[{ name: "wait_for_instrument", input: {} }], "done"]);
    const run = generateText({
      model,
      prompt: request,
      tools: sm.tools,
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
    });
    while (waits.started === before.started) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("user stopped"));
    await assert.rejects(run);
    // The tool saw the step's own abort (not its 60 s timeout).
    assert.deepEqual(waits.reasons.slice(before.reasons), ["Error: user stopped"]);
  } finally {
    await sm.close();
  }
});

test("discovery: find_tools, then the tool it found, active from the next step; held never callable, but said", async () => {
  const catalog = suite.catalog();
  const request = "what is 2 plus 3?";
  const sm = await aiSdkTools({ catalog, request, selection: selection([], []), discovery: true });
  try {
    assert.ok(!("everything__get-env" in sm.tools) && !("shady__weather_forecast" in sm.tools));
    assert.match(sm.system, /call find_tools/);
    const model = scripted([
      [
        { name: "find_tools", input: { query: "sum of two numbers" } },
        { name: "find_tools", input: { query: "environment variables of the server" } },
        { name: "everything__get-sum", input: { a: 2, b: 3 } }, // guessed: not active yet
      ],
      [{ name: "everything__get-sum", input: { a: 2, b: 3 } }],
      "5",
    ]);
    const result = await generateText({
      model,
      system: sm.system,
      prompt: request,
      tools: sm.tools,
      prepareStep: sm.prepareStep,
      stopWhen: stepCountIs(4),
    });
    const steps = offered(model);
    assert.deepEqual(steps[0], ["find_tools"]);
    assert.deepEqual(steps[1], ["everything__get-sum", "find_tools"]);
    const [early, found, env, sum] = outcomes(result) as Array<
      { name: string; output: { isError: boolean; text: string }; error?: string }
    >;
    assert.match(found.output.text, /- everything__get-sum: \[mcp:everything, untrusted\]/);
    // The held tool is never found callable, but it is said, with how to approve it.
    assert.match(
      env.output.text,
      /^No callable tool fits .*Waiting for a person's approval, not callable: everything__get-env\./,
    );
    // The AI SDK itself holds activeTools: the guessed call never reaches a tool.
    assert.match(early.error ?? "", /unavailable tool 'everything__get-sum'/);
    assert.deepEqual([sum.output.isError, sum.output.text], [false, "The sum of 2 and 3 is 5."]);
    assert.equal(result.text, "5");
  } finally {
    await sm.close();
  }
});

test("an agent whose MCP tools are all held by default approvals is told so, and can tell the user", async () => {
  const server = await startEverything("streamableHttp");
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "everything", url: server.url });
  // Default approvals: every remote tool waits for a person.
  const catalog = await createCatalog({ registry });
  const request = "echo the message hello back to me";
  const sm = await aiSdkTools({ catalog, request, discovery: true });
  try {
    assert.deepEqual(Object.keys(sm.tools), ["find_tools"], "nothing held is offered");
    assert.equal(sm.held[0]?.id, "everything__echo");
    assert.equal(sm.held[0]?.fits, true);
    assert.ok(sm.held.length >= 10, "every tool of the server is listed as held");
    const held = sm.diagnostics.find((d) => d.problem === "held");
    assert.match(
      held?.message ?? "",
      /^\d+ tools wait for approval and cannot be called yet: everything__echo, /,
    );
    assert.match(held?.message ?? "", /Approve them with: skillmux approve everything__echo /);
    assert.match(
      sm.system,
      /wait for the user's approval and cannot be called yet: everything__echo/,
    );
    const model = scripted([
      [{ name: "find_tools", input: { query: "echo a message" } }],
      "everything__echo waits for your approval: run skillmux approve everything__echo",
    ]);
    const result = await generateText({
      model,
      system: sm.system,
      prompt: request,
      tools: sm.tools,
      prepareStep: sm.prepareStep,
      stopWhen: stepCountIs(3),
    });
    const [found] = outcomes(result);
    assert.equal(found.name, "find_tools");
    assert.match(
      found.output!.text,
      /^No callable tool fits "echo a message"\. Waiting for a person's approval, not callable: everything__echo\b/,
    );
    assert.match(
      found.output!.text,
      /ask the user to approve it \(skillmux approve everything__echo/,
    );
    assert.doesNotMatch(found.output!.text, /Try other words/);
    // Nothing held became callable.
    assert.deepEqual(offered(model)[1], ["find_tools"]);
  } finally {
    await sm.close();
    catalog.dispose();
    await server.close();
  }
});
