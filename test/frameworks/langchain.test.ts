// @skillmux/core/langchain with the real @langchain/core: a scripted tool-calling chat model (a
// minimal BaseChatModel) drives an agent loop that calls an MCP tool on a live server-everything
// and a host function. Every call runs through skillmux: bad arguments answered as an error, a
// held tool and a tool of an unapproved server never run, the run's signal cancels the call,
// images become image blocks; discovery gives each step's tool list with what find_tools found.
import assert from "node:assert/strict";
import { test } from "node:test";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type ToolMessage,
} from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { langchainTools } from "../../lib/frameworks/langchain.ts";
import { selection } from "../_selection.ts";
import { frameworkSuite, waits } from "./_scripted.ts";

const suite = frameworkSuite();

type Call = { name: string; args: Record<string, unknown> };
type Plan = Call[] | string;

/** A chat model that answers its n-th call with `script[n]`, recording the tools bound each time. */
class ScriptedChat extends BaseChatModel {
  constructor(
    readonly shared: { script: Plan[]; step: number; bound: string[][] },
    readonly toolNames: string[] = [],
  ) {
    super({});
  }
  _llmType() {
    return "scripted";
  }
  override bindTools(tools: Array<{ name: string }>) {
    return new ScriptedChat(this.shared, tools.map((t) => t.name));
  }
  _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    const n = this.shared.step++;
    this.shared.bound.push(this.toolNames);
    const plan = this.shared.script[Math.min(n, this.shared.script.length - 1)];
    const message = typeof plan === "string" ? new AIMessage(plan) : new AIMessage({
      content: "",
      tool_calls: plan.map((c, i) => ({ ...c, id: `call_${n}_${i}`, type: "tool_call" as const })),
    });
    return Promise.resolve({ generations: [{ text: "", message }] });
  }
}

/** The agent loop of the docs: bind the step's tools, run the calls, until the model answers. */
async function agent(sm: Awaited<ReturnType<typeof langchainTools>>, script: Plan[]) {
  const shared = { script, step: 0, bound: [] as string[][] };
  const model = new ScriptedChat(shared);
  const messages: BaseMessage[] = [sm.system, new HumanMessage("go")];
  const results: ToolMessage[] = [];
  for (let step = 0; step < 5; step++) {
    const reply = await model.bindTools(sm.step()).invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) {
      const answer = await sm.invoke(call);
      results.push(answer);
      messages.push(answer);
    }
  }
  return { results, bound: shared.bound, last: messages.at(-1)! };
}

const textOf = (m: ToolMessage) =>
  typeof m.content === "string" ? m.content : JSON.stringify(m.content);

test("an MCP tool and a host function run through skillmux; bad arguments are an error; images become image blocks", async () => {
  const catalog = suite.catalog();
  const sm = await langchainTools({
    catalog,
    request: "add 2 and 3, record it, show the logo",
    selection: selection([], [
      "everything__get-sum",
      "record_result",
      "everything__get-tiny-image",
    ]),
  });
  try {
    assert.equal(sm.system.getType(), "system");
    assert.match(sm.systemText, /everything__get-sum \(mcp:everything, untrusted description\)/);
    const run = await agent(sm, [
      [
        { name: "everything__get-sum", args: { a: 2, b: 3 } },
        { name: "record_result", args: { value: 5 } },
        { name: "everything__get-tiny-image", args: {} },
        { name: "everything__get-sum", args: { a: "two" } },
      ],
      "The sum is 5.",
    ]);
    assert.deepEqual(run.bound[0].sort(), [
      "everything__get-sum",
      "everything__get-tiny-image",
      "record_result",
    ]);
    const [sum, recorded, image, bad] = run.results;
    assert.deepEqual([sum.status, sum.content], ["success", "The sum of 2 and 3 is 5."]);
    assert.equal(sum.tool_call_id, "call_0_0");
    assert.deepEqual([recorded.status, recorded.content], ["success", "recorded 5"]);
    assert.match(textOf(image), /"type":"image","mimeType":"image\/png","data":"iVBOR/);
    assert.equal(bad.status, "error");
    assert.match(textOf(bad), /Invalid arguments for "everything__get-sum"/);
    assert.equal(run.last.content, "The sum is 5.");
  } finally {
    await sm.close();
  }
});

test("LangChain's own schema check is skipped for skillmux's (a server's pattern never runs natively)", async () => {
  const catalog = suite.catalog();
  const sm = await langchainTools({
    catalog,
    request: "add",
    selection: selection([], ["everything__get-sum"]),
  });
  try {
    const [sum] = sm.tools;
    assert.deepEqual((sm.tools[0].schema as { required: string[] }).required, ["a", "b"]);
    const answer = await sum.invoke({ id: "c1", name: sum.name, args: {}, type: "tool_call" });
    assert.equal((answer as ToolMessage).status, "error");
    assert.match(textOf(answer as ToolMessage), /Invalid arguments for "everything__get-sum"/);
  } finally {
    await sm.close();
  }
});

test("a held tool and a tool of an unapproved server are never offered and never run", async () => {
  const catalog = suite.catalog();
  const sm = await langchainTools({
    catalog,
    request: "print the environment and the weather",
    selection: selection([], ["everything__get-env", "shady__weather_forecast", "record_result"]),
    approveCommand: "npx skillmux approve",
  });
  try {
    assert.deepEqual(sm.tools.map((t) => t.name), ["record_result"]);
    // Not offered, but said: to the developer, and to the model since they fit the request.
    assert.deepEqual(
      sm.held.map((h) => [h.id, h.fits]),
      [["everything__get-env", true], ["shady__weather_forecast", true]],
    );
    assert.ok(
      sm.diagnostics.some((d) =>
        d.problem === "held" &&
        /Approve them with: npx skillmux approve everything__get-env shady__weather_forecast$/
          .test(d.message)
      ),
      JSON.stringify(sm.diagnostics),
    );
    assert.match(
      String(sm.system.content),
      /wait for the user's approval .*: everything__get-env, shady__weather_forecast/,
    );
    const run = await agent(sm, [
      [
        { name: "everything__get-env", args: {} },
        { name: "shady__weather_forecast", args: { city: "Paris" } },
      ],
      "Cannot.",
    ]);
    assert.deepEqual(run.results.map((r) => r.status), ["error", "error"]);
    assert.match(textOf(run.results[0]), /There is no tool "everything__get-env"/);
    assert.deepEqual(suite.shadyCalls(), []);
  } finally {
    await sm.close();
  }
});

test("the run's signal cancels the running tool call", async () => {
  const catalog = suite.catalog();
  const sm = await langchainTools({
    catalog,
    request: "wait for the sequencing instrument",
    selection: selection([], ["wait_for_instrument"]),
  });
  const before = { started: waits.started, reasons: waits.reasons.length };
  const controller = new AbortController();
  try {
    const call = { id: "c1", name: "wait_for_instrument", args: {} };
    const run = sm.invoke(call, { signal: controller.signal });
    while (waits.started === before.started) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("user stopped"));
    await assert.rejects(run);
    assert.deepEqual(waits.reasons.slice(before.reasons), ["Error: user stopped"]);
  } finally {
    await sm.close();
  }
});

test("discovery: find_tools, then the tool it found, bound from the next step; held never callable, but said", async () => {
  const catalog = suite.catalog();
  const sm = await langchainTools({
    catalog,
    request: "what is 2 plus 3?",
    selection: selection([], []),
    discovery: true,
  });
  try {
    const names = sm.tools.map((t) => t.name);
    assert.ok(names.includes("find_tools") && names.includes("everything__get-sum"));
    assert.ok(!names.includes("everything__get-env") && !names.includes("shady__weather_forecast"));
    const run = await agent(sm, [
      [
        { name: "find_tools", args: { query: "sum of two numbers" } },
        { name: "find_tools", args: { query: "environment variables of the server" } },
        { name: "everything__get-sum", args: { a: 2, b: 3 } }, // guessed: not callable yet
      ],
      [{ name: "everything__get-sum", args: { a: 2, b: 3 } }],
      "5",
    ]);
    assert.deepEqual(run.bound.slice(0, 2), [["find_tools"], [
      "everything__get-sum",
      "find_tools",
    ]]);
    const [found, env, early, sum] = run.results;
    assert.match(textOf(found), /- everything__get-sum: \[mcp:everything, untrusted\]/);
    assert.match(
      textOf(env),
      /^No callable tool fits .*Waiting for a person's approval, not callable: everything__get-env\./,
    );
    assert.equal(early.status, "error");
    assert.deepEqual([sum.status, sum.content], ["success", "The sum of 2 and 3 is 5."]);
  } finally {
    await sm.close();
  }
});
