// The header assemblePrompt writes, line by line, for each kind of content (inline skills, skills
// on demand with activate_skill, tools, remote content and its untrusted line), the whole prompt
// for two of each, the prompt's executeToolCall, connect: false and an aborted signal. Over the
// catalog of _assemble.ts: skills in memory, real MCP servers on 127.0.0.1, a character counter.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Catalog } from "../../lib/mod.ts";
import { selection } from "../_selection.ts";
import {
  assembleWith,
  HEADER,
  headerOf,
  INLINE,
  ON_DEMAND,
  startAssembleCatalog,
  TOOLS,
  UNTRUSTED,
} from "./_assemble.ts";

let catalog: Catalog;
let close: () => Promise<void>;
before(async () => ({ catalog, close } = await startAssembleCatalog()));
after(() => close());
/** assemblePrompt over this file's catalog, with a character counter (see assembleWith). */
const assemble = (options: Parameters<typeof assembleWith>[1]) => assembleWith(catalog, options);

describe("the header says what the prompt holds", () => {
  test("inline skills only: the skills line, no tools line, no untrusted line", async () => {
    const prompt = await assemble({ selection: selection(["short"]) });
    assert.deepEqual(headerOf(prompt.system), [HEADER, INLINE]);
  });

  test("skills on demand: the activate_skill line", async () => {
    const prompt = await assemble({ selection: selection(["short"]), skills: "tool" });
    assert.deepEqual(headerOf(prompt.system), [HEADER, ON_DEMAND]);
    assert.match(prompt.system, /\n# Skills on demand\n\n- short\n/);
  });

  test("skills on demand: the activate_skill tool names each skill and takes one of them", async () => {
    const prompt = await assemble({ selection: selection(["short", "indexing"]), skills: "tool" });
    assert.deepEqual(prompt.tools.anthropic.find((t) => t.name === "activate_skill"), {
      name: "activate_skill",
      description:
        "Load a skill's full instructions (concepts, pitfalls, worked examples) before using it. Available: short: Notes on short for BAM files.; indexing: Notes on indexing for BAM files.",
      input_schema: {
        type: "object",
        properties: {
          name: { type: "string", enum: ["short", "indexing"], description: "The skill to load" },
        },
        required: ["name"],
        additionalProperties: false,
      },
    });
  });

  test("two of each, the whole prompt: blocks apart by a blank line, list items by a line", async () => {
    const inline = await assemble({
      selection: selection(["short", "indexing"], ["tools__sort_bam", "lookup_sample"]),
    });
    const block = (name: string) =>
      `<skill name="${name}" source="user">\n## Steps\n\nIndex the sorted BAM.\n</skill>`;
    assert.equal(
      inline.system,
      `${HEADER}\n${INLINE}\n${TOOLS}\n${UNTRUSTED}\n\n# Skills\n\n${block("short")}\n\n${
        block("indexing")
      }\n\n# Tools\n\n- tools__sort_bam (mcp:tools, untrusted description)\n- lookup_sample\n`,
    );
    const onDemand = await assemble({
      selection: selection(["short", "indexing"], ["lookup_sample"]),
      skills: "tool",
    });
    assert.equal(
      onDemand.system,
      `${HEADER}\n${ON_DEMAND}\n${TOOLS}\n\n# Skills on demand\n\n- short\n- indexing\n\n# Tools\n\n- lookup_sample\n`,
    );
    assert.deepEqual(onDemand.loaded.skills, [
      { id: "short", source: "user", inline: false },
      { id: "indexing", source: "user", inline: false },
    ]);
    assert.deepEqual(inline.tools.openai.map((t) => t.function.name), [
      "tools__sort_bam",
      "lookup_sample",
    ]);
    // On demand, which skills have files is known only once one is activated: read_skill_file
    // is offered for every selected skill.
    assert.deepEqual(onDemand.tools.anthropic.map((t) => t.name), [
      "lookup_sample",
      "activate_skill",
      "read_skill_file",
    ]);
    assert.deepEqual(inline.messages, {
      openai: [{ role: "system", content: inline.system }, {
        role: "user",
        content: "sort my BAM",
      }],
      anthropic: { system: inline.system, messages: [{ role: "user", content: "sort my BAM" }] },
    });
    const toolsOnly = await assemble({
      selection: selection([], ["lookup_sample"]),
      skills: "tool",
    });
    assert.equal(toolsOnly.system, `${HEADER}\n${TOOLS}\n\n# Tools\n\n- lookup_sample\n`);
    assert.deepEqual(toolsOnly.tools.openai.map((t) => t.function.name), ["lookup_sample"]);
  });

  test("tools only: the tools line and, for a remote tool, the untrusted line", async () => {
    const prompt = await assemble({ selection: selection([], ["tools__sort_bam"]) });
    assert.deepEqual(headerOf(prompt.system), [HEADER, TOOLS, UNTRUSTED]);
    assert.match(
      prompt.system,
      /\n# Tools\n\n- tools__sort_bam \(mcp:tools, untrusted description\)\n$/,
    );
  });

  test("tools only, the whole prompt: no skills section, no untrusted line for a host function", async () => {
    const remote = await assemble({ selection: selection([], ["tools__sort_bam"]) });
    assert.equal(
      remote.system,
      `${HEADER}\n${TOOLS}\n${UNTRUSTED}\n\n# Tools\n\n- tools__sort_bam (mcp:tools, untrusted description)\n`,
    );
    const local = await assemble({ selection: selection([], ["lookup_sample"]) });
    assert.equal(local.system, `${HEADER}\n${TOOLS}\n\n# Tools\n\n- lookup_sample\n`);
    assert.deepEqual(local.loaded.tools, [
      { id: "lookup_sample", source: "host", connected: true },
    ]);
  });

  test("the prompt's executeToolCall: activate_skill only for skills on demand", async () => {
    const call = {
      type: "tool_use" as const,
      id: "a1",
      name: "activate_skill",
      input: { name: "short" },
    };
    const inline = await assemble({ selection: selection(["short"]) });
    const refused = await inline.executeToolCall(call);
    assert.equal(refused.isError, true);
    assert.deepEqual(refused.reply, {
      type: "tool_result",
      tool_use_id: "a1",
      content: [{ type: "text", text: 'No skill "short" to activate; choose one of: ' }],
      is_error: true,
    });
    const onDemand = await assemble({ selection: selection(["short"]), skills: "tool" });
    const loaded = await onDemand.executeToolCall(call);
    assert.equal(loaded.isError, false);
    assert.match(JSON.stringify(loaded.reply), /Index the sorted BAM/);
  });

  test("connect: false offers the tools without connecting their servers", async () => {
    const prompt = await assemble({ selection: selection([], ["tools__sort_bam"]) });
    assert.deepEqual(prompt.loaded.tools, [
      { id: "tools__sort_bam", source: "mcp:tools", connected: false },
    ]);
    const connected = await assemble({
      selection: selection([], ["tools__sort_bam"]),
      connect: true,
    });
    assert.deepEqual(connected.loaded.tools, [
      { id: "tools__sort_bam", source: "mcp:tools", connected: true },
    ]);
  });

  test("an aborted signal reaches the connection and the skill read: both left out", async () => {
    const prompt = assemble({
      selection: selection(["remote-asker"], ["tools__sort_bam"]),
      connect: true,
      signal: AbortSignal.abort(new Error("stopped by the caller")),
    });
    assert.deepEqual((await prompt).diagnostics, [
      {
        id: "tools__sort_bam",
        problem: "unavailable",
        message: '"tools__sort_bam": cannot connect to mcp:tools: stopped by the caller; left out',
      },
      {
        id: "remote-asker",
        problem: "unavailable",
        message: 'Skill "remote-asker": stopped by the caller',
      },
    ]);
  });

  test("a remote skill: the untrusted line after the skills line", async () => {
    const prompt = await assemble({ selection: selection(["remote-asker"]) });
    assert.deepEqual(headerOf(prompt.system), [HEADER, INLINE, UNTRUSTED]);
  });
});
