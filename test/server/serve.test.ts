// serveSkills over the built-in skills, with our own client: resources, tools, JSON and SSE.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { connect } from "../../lib/mcp/client/client.ts";
import type { McpClient } from "../../lib/mcp/client/client_types.ts";
import { builtinSkillNames } from "../../lib/resolve/builtin_source.ts";
import { createMcpSkillSource } from "../../lib/resolve/mcp_source.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { post } from "./_helpers.ts";

let server: SkillsServer;
let client: McpClient;

before(async () => {
  server = await serveSkills();
  client = await connect({ name: "skills", url: server.url });
});

after(async () => {
  await client?.close();
  await server?.close();
});

describe("serveSkills (built-in skills)", () => {
  test("binds 127.0.0.1 and serves /mcp", () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  test("lists every built-in skill as skill://<name>, text/markdown", async () => {
    const resources = await client.listResources();
    const names = await builtinSkillNames();
    assert.deepEqual(resources.map((r) => r.name).sort(), names);
    const samtools = resources.find((r) => r.uri === "skill://samtools");
    assert.equal(samtools?.mimeType, "text/markdown");
    assert.match(samtools?.description ?? "", /SAM\/BAM/);
    const templates = await client.listResourceTemplates();
    assert.deepEqual(templates.map((t) => t.uriTemplate), [
      "skill://{name}",
      "skill://{name}/{+path}",
    ]);
  });

  test("reads a skill back as Markdown", async () => {
    const [content] = await client.readResource("skill://samtools");
    assert.equal(content.mimeType, "text/markdown");
    assert.match(content.text ?? "", /^---\nname: samtools\n/);
    assert.match(content.text ?? "", /## Examples/);
  });

  test("every served example names the program it runs", async () => {
    const [star] = await client.readResource("skill://star");
    assert.match(star.text ?? "", /^command: STAR$/m);
    assert.match(
      star.text ?? "",
      /### Align gzipped paired-end reads to a sorted BAM\n\*\*Command:\*\* `STAR`\n\*\*Args:\*\* `--runThreadN/,
    );
    const hit = await client.callTool("get_skill", { name: "hisat2" });
    const text = (hit.content[0] as { text: string }).text;
    assert.match(
      text,
      /### Build a genome index\n\*\*Command:\*\* `hisat2-build`\n\*\*Args:\*\* `-p 8 /,
    );
    assert.match(text, /\*\*Command:\*\* `hisat2`\n\*\*Args:\*\* `-p 8 -x GRCh38_index -1/);
  });

  test("get_skill refuses a look-alike name that is not ASCII", async () => {
    // The Kelvin sign lowercases to ASCII "k": this name used to be served as "seqkit".
    const miss = await client.callTool("get_skill", { name: "seq\u212Ait" });
    assert.equal(miss.isError, true);
    assert.match((miss.content[0] as { text: string }).text, /is not a skill name: .*ASCII/);
    await assert.rejects(client.readResource("skill://seq%E2%84%AAit"), /not found/);
    assert.match((await client.readResource("skill://SEQKIT"))[0].text ?? "", /name: seqkit/);
  });

  test("a malformed percent-encoding (skill://%ZZ) is invalid params (-32602), on every path", async () => {
    // Our client speaks 2026-07-28 (answered by the server itself); a raw 2025 request goes
    // through the SDK for skill://<name> and through the server for skill://<name>/<file>.
    await assert.rejects(client.readResource("skill://%ZZ"), /-32602.*malformed percent-encoding/);
    for (const uri of ["skill://%ZZ", "skill://%ZZ/SKILL.md", "skill://sam%E2tools"]) {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "resources/read",
        params: { uri },
      });
      const answer = await (await post(server.url, {}, body)).json();
      assert.equal(answer.error?.code, -32602, `${uri}: ${JSON.stringify(answer)}`);
      assert.match(answer.error.message, /malformed percent-encoding/);
    }
  });

  test("reading an unknown skill fails", async () => {
    await assert.rejects(client.readResource("skill://nope"), /not found/);
  });

  test("tools: search_skills and get_skill", async () => {
    const tools = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "get_skill",
      "read_skill_file",
      "search_skills",
    ]);
  });

  test('search_skills "sort a bam by coordinate" ranks samtools first', async () => {
    const result = await client.callTool("search_skills", {
      query: "sort a bam by coordinate",
      limit: 3,
    });
    assert.notEqual(result.isError, true);
    const { results } = result.structuredContent as { results: { name: string; uri: string }[] };
    assert.equal(results[0].name, "samtools");
    assert.equal(results[0].uri, "skill://samtools");
    assert.ok(results.length <= 3);
    const text = result.content[0] as { type: string; text: string };
    assert.match(text.text, /^- samtools \(skill:\/\/samtools\)/);
  });

  test("search_skills without a query is a tool error", async () => {
    const result = await client.callTool("search_skills", {});
    assert.equal(result.isError, true);
  });

  test("get_skill returns the Markdown; an unknown name is isError with a hint", async () => {
    const hit = await client.callTool("get_skill", { name: "bwa" });
    assert.notEqual(hit.isError, true);
    assert.match((hit.content[0] as { text: string }).text, /name: bwa/);
    const miss = await client.callTool("get_skill", { name: "samtool" });
    assert.equal(miss.isError, true);
    const text = (miss.content[0] as { text: string }).text;
    assert.match(text, /No skill named "samtool"/);
    assert.match(text, /search_skills/);
  });

  test("answers JSON when asked for JSON only, SSE when SSE is accepted", async () => {
    const json = await post(server.url);
    assert.equal(json.status, 200);
    assert.match(json.headers.get("content-type") ?? "", /application\/json/);
    assert.equal((await json.json()).result.serverInfo.name, "skillmux");
    const sse = await post(server.url, { accept: "application/json, text/event-stream" });
    assert.equal(sse.status, 200);
    assert.match(sse.headers.get("content-type") ?? "", /text\/event-stream/);
    assert.match(await sse.text(), /"serverInfo"/);
  });

  test("stateless: GET is 405", async () => {
    const response = await fetch(server.url, { headers: { accept: "text/event-stream" } });
    await response.body?.cancel();
    assert.equal(response.status, 405);
  });

  test("createMcpSkillSource resolves a skill from the server", async () => {
    const team = createMcpSkillSource({ name: "team", url: server.url });
    try {
      const hit = await createResolver({ sources: [[team]] }).resolve("samtools");
      assert.equal(hit.source, "mcp:team");
      assert.equal(hit.skill.name, "samtools");
      assert.ok(hit.skill.examples.length > 0);
    } finally {
      await team.dispose();
    }
  });
});

test("closed settles once close() has stopped the HTTP server; an unknown transport is refused", async () => {
  const own = await serveSkills();
  let settled = false;
  own.closed.then(() => (settled = true));
  await new Promise((done) => setTimeout(done, 20));
  assert.equal(settled, false);
  await own.close();
  await own.closed;
  assert.equal(settled, true);
  await assert.rejects(
    // deno-lint-ignore no-explicit-any
    serveSkills({ transport: "ws" as any }),
    /transport must be "http" or "stdio", got "ws"/,
  );
});
