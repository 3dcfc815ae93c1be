// Tool results in the model APIs' shapes (lib/prompt/results.ts), through executeToolCall against
// a stub MCP server on 127.0.0.1 whose tools/call answers whatever content a test gives it: blocks
// that are not text described (image and audio with type and size, a resource by its text or uri
// and type, a link), images inline for Anthropic only in the four types it takes, structured
// content when there is no block, isError carried, an unknown block type named.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import {
  type Catalog,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  executeToolCall,
} from "../../lib/mod.ts";
import { listenLocal } from "../mcp/_servers.ts";

describe("tool results in the model APIs' shapes", () => {
  let answer: Record<string, unknown> = {};
  let close: () => Promise<void>;
  let catalog: Catalog;

  before(async () => {
    const results: Record<string, () => unknown> = {
      "server/discover": () => ({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } }),
      "tools/list": () => ({
        tools: [{ name: "show", description: "Shows content", inputSchema: { type: "object" } }],
      }),
      "tools/call": () => answer,
    };
    const server = http.createServer(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      const rpc = JSON.parse(body);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result: results[rpc.method]?.() ?? {} }),
      );
    });
    const listening = await listenLocal(server);
    close = listening.close;
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "viz", url: `http://127.0.0.1:${listening.port}/mcp` });
    catalog = await createCatalog({
      resolver: createResolver({ sources: [] }),
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
  });
  after(async () => {
    catalog.dispose();
    await close();
  });

  /** Both replies of one call answering `result`. */
  async function both(result: Record<string, unknown>) {
    answer = result;
    const openai = await executeToolCall(
      { id: "c", type: "function", function: { name: "viz__show", arguments: "{}" } },
      { catalog },
    );
    const anthropic = await executeToolCall(
      { type: "tool_use", id: "t", name: "viz__show", input: {} },
      { catalog },
    );
    return { openai: openai.reply as { content: string }, anthropic: anthropic.reply as never };
  }

  const DATA = "QUJDRA=="; // 8 base64 characters: 6 bytes by the 3/4 estimate

  test("blocks that are not text are described; Anthropic gets the four image types inline", async () => {
    const content = [
      { type: "text", text: "intro" },
      { type: "image", mimeType: "image/png", data: DATA },
      { type: "image", mimeType: "image/svg+xml", data: DATA },
      { type: "audio", mimeType: "audio/wav", data: DATA },
      { type: "resource", resource: { uri: "file:///a.txt", text: "inline text" } },
      {
        type: "resource",
        resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: DATA },
      },
      { type: "resource", resource: { uri: "file:///c.bin", blob: DATA } },
      { type: "resource_link", name: "report", uri: "file:///r.pdf" },
    ];
    const { openai, anthropic } = await both({ content });
    assert.equal(
      openai.content,
      [
        "intro",
        "[image image/png, 6 bytes]",
        "[image image/svg+xml, 6 bytes]",
        "[audio audio/wav, 6 bytes]",
        "inline text",
        "[resource file:///b.bin (application/zip)]",
        "[resource file:///c.bin]",
        "[link report: file:///r.pdf]",
      ].join("\n"),
    );
    assert.deepEqual((anthropic as { content: unknown[] }).content.slice(0, 3), [
      { type: "text", text: "intro" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: DATA } },
      { type: "text", text: "[image image/svg+xml, 6 bytes]" },
    ]);
    for (const mime of ["image/jpeg", "image/gif", "image/webp"]) {
      const { anthropic: one } = await both({
        content: [{ type: "image", mimeType: mime, data: DATA }],
      });
      assert.equal((one as { content: { type: string }[] }).content[0].type, "image", mime);
    }
    // Only an image block is inlined, not audio that names an image type.
    const { anthropic: audio } = await both({
      content: [{ type: "audio", mimeType: "image/png", data: DATA }],
    });
    assert.deepEqual((audio as { content: unknown[] }).content, [
      { type: "text", text: "[audio image/png, 6 bytes]" },
    ]);
    // The whole type must be one of the four: nothing after it, nothing before it.
    for (const mime of ["image/pngx", "text/image/png"]) {
      const { anthropic: other } = await both({
        content: [{ type: "image", mimeType: mime, data: DATA }],
      });
      assert.equal((other as { content: { type: string }[] }).content[0].type, "text", mime);
    }
  });

  test("structured content stands in for no blocks; an error result is marked in both formats", async () => {
    const { openai, anthropic } = await both({ content: [], structuredContent: { rows: 2 } });
    assert.equal(openai.content, '{"rows":2}');
    assert.deepEqual((anthropic as { content: unknown }).content, [{
      type: "text",
      text: '{"rows":2}',
    }]);
    const empty = await both({ content: [] });
    assert.equal(empty.openai.content, "");
    assert.deepEqual((empty.anthropic as { content: unknown }).content, [{
      type: "text",
      text: "",
    }]);
    const failed = await both({ content: [{ type: "text", text: "no such file" }], isError: true });
    assert.equal(failed.openai.content, "Error: no such file");
    assert.equal((failed.anthropic as { is_error?: boolean }).is_error, true);
    const fine = await both({
      content: [{ type: "text", text: "ok" }],
      structuredContent: { a: 1 },
    });
    assert.equal(fine.openai.content, "ok", "blocks win over structured content");
    assert.equal("is_error" in (fine.anthropic as object), false);
  });

  test("a block of a type the client does not know is named by its type", async () => {
    const { openai, anthropic } = await both({ content: [{ type: "widget", size: 3 }] });
    assert.equal(openai.content, "[widget content]");
    assert.deepEqual((anthropic as { content: unknown[] }).content, [
      { type: "text", text: "[widget content]" },
    ]);
  });
});
