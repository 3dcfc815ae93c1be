// The MCP skill source on a resources server (skill:// resources, maybe a skill://{name}
// template), against real SDK servers and the skills stub: a cold lookup reads skill://<name>
// before the listing answers; a listed SKILL.md beats the guess; -32002 means not here; a name the
// template does not know is not there; a server without resources lists nothing; no notification
// stream unless watch is on; a skill the listing lacks is read through the template.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createMcpSkillSource } from "../../lib/resolve/mcp_source.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { initialize, startFaultServer } from "../mcp/_fault_server.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { rpcError } from "../mcp/_skills_stub.ts";
import { mcpSources, skillDoc, withStub } from "./_helpers.ts";

const { source, disposeAll } = mcpSources();
const signal = () => new AbortController().signal;
after(disposeAll);

describe("a resources server's reads (stub)", () => {
  const doc = (name: string, more = "") =>
    `---\nname: ${name}\ndescription: The ${name} skill.\n${more}---\n\nBody\n`;
  const resource = (name: string, uri = `skill://${name}`) => ({
    uri,
    name,
    mimeType: "text/markdown",
  });
  const reads: Record<string, unknown> = {
    "skill://star": { contents: [{ uri: "skill://star", text: "the guess, not the listed file" }] },
    "skill://star/SKILL.md": { contents: [{ uri: "skill://star/SKILL.md", text: doc("star") }] },
    "skill://mixed": {
      contents: [
        { uri: "skill://mixed", blob: "AAAA" },
        { uri: "skill://mixed", text: "" },
        { uri: "skill://mixed", text: doc("mixed") },
      ],
    },
    "skill://blobby": { contents: [{ uri: "skill://blobby", blob: "AAAA" }] },
    "skill://gone": rpcError(-32002, "Resource not found"),
    "skill://broken": rpcError(-32603, "the disk is on fire"),
    "skill://tools": {
      contents: [{ uri: "skill://tools", text: doc("tools", "allowed-tools: Read Bash\n") }],
    },
  };
  const answers = (open: boolean) => ({
    "resources/list": () => ({
      resources: [
        resource("star", "skill://star/SKILL.md"),
        ...["mixed", "blobby", "gone", "broken", "tools"].map((n) => resource(n)),
      ],
    }),
    "resources/templates/list": () => ({
      resourceTemplates: open ? [{ uriTemplate: "skill://{name}", name: "skill" }] : [],
    }),
    "resources/read": (params: Record<string, unknown>) =>
      reads[String(params.uri)] ?? rpcError(-32602, `no ${String(params.uri)}`),
  });
  const readCount = (calls: string[]) => calls.filter((m) => m === "resources/read").length;

  test("a listed SKILL.md beats the guess; the first non-empty text; -32002 is not here", async () => {
    await withStub(answers(true), true, async (stub) => {
      const team = source(stub.url);
      assert.equal((await team.get("star", { signal: signal() }))?.text, doc("star"));
      assert.equal((await team.get("mixed", { signal: signal() }))?.text, doc("mixed"));
      assert.equal(await team.get("blobby", { signal: signal() }), undefined);
      assert.equal(await team.get("gone", { signal: signal() }), undefined);
      assert.equal(await team.get("nobody", { signal: signal() }), undefined);
      await assert.rejects(team.get("broken", { signal: signal() }), /the disk is on fire/);
      const before = readCount(stub.calls);
      await team.get("star", { signal: signal() });
      assert.equal(readCount(stub.calls), before + 1, "a warm get reads once, no guess");
      assert.deepEqual(await team.summaries!({ signal: signal() }), [], "no summaries");
      const hit = await createResolver({ sources: [team] }).resolve("tools");
      assert.deepEqual([hit.skill.allowedTools, hit.requestedAllowedTools], [[], ["Read", "Bash"]]);
    });
  });

  test("peek answers from the listing; a cold cached-only peek asks nothing", async () => {
    await withStub(answers(true), true, async (stub) => {
      const team = source(stub.url);
      assert.equal(await team.peek!("star", { signal: signal(), cachedOnly: true }), undefined);
      assert.deepEqual(stub.calls, [], "nothing asked");
      assert.equal(await team.peek!("star", { signal: signal() }), true);
      assert.equal(await team.peek!("nobody", { signal: signal(), cachedOnly: true }), undefined);
      assert.equal(
        await team.peek!("nobody", { signal: signal(), cachedOnly: true, listedOnly: true }),
        false,
      );
    });
  });

  test("without a template, a name not listed is not read at all", async () => {
    await withStub(answers(false), true, async (stub) => {
      const team = source(stub.url);
      await team.list({ signal: signal() });
      assert.equal(await team.peek!("nobody", { signal: signal() }), false);
      const before = readCount(stub.calls);
      assert.equal(await team.get("nobody", { signal: signal() }), undefined);
      assert.equal(readCount(stub.calls), before);
    });
  });
});

describe("a resources server", () => {
  let server: SdkServer;
  const rpcs = () => server.requests.map((r) => r.rpc ?? r.method);

  before(async () => {
    server = await startSdkServer({
      stateful: true,
      skills: { star: skillDoc("star", "STAR. Use when mapping.") },
      unlisted: { hidden: skillDoc("hidden", "Hidden. Use when testing.") },
    });
  });
  after(() => server.close());

  test("a cold lookup reads skill://<name> before the listing answers", async () => {
    server.requests.length = 0;
    const hit = await createResolver({ sources: [source(server.url)] }).resolve("hidden");
    assert.equal(hit.location, "skill://hidden");
    const seen = rpcs();
    assert.ok(seen.indexOf("resources/read") < seen.indexOf("resources/list"), seen.join(" "));
    assert.equal(seen.filter((m) => m === "resources/read").length, 1);
  });

  test("a name its template does not know is not there, not an error", async () => {
    const team = source(server.url);
    assert.equal(await team.get("nobody", { signal: signal() }), undefined);
    const error = await createResolver({ sources: [team] }).resolve("nobody").catch((e) => e);
    assert.equal(error.name, "SkillNotFoundError");
    assert.deepEqual(error.diagnostics, []);
  });

  test("a server without the resources capability lists nothing, asking nothing", async () => {
    const bare = await startFaultServer();
    bare.lifecycle = true;
    bare.script(initialize());
    try {
      assert.deepEqual(await source(bare.url).list({ signal: signal() }), []);
      const asked = bare.received.map((r) => String(r.rpc?.method));
      assert.deepEqual(asked.filter((m) => m.startsWith("resources/")), [], asked.join(" "));
      assert.ok(asked.includes("initialize"));
    } finally {
      await bare.close();
    }
  });

  test("no notification stream unless watch is on", async () => {
    server.requests.length = 0;
    await source(server.url).list({ signal: signal() });
    assert.equal(server.requests.filter((r) => r.method === "GET").length, 0);
    const watching = source(server.url, { watch: true });
    await watching.list({ signal: signal() });
    for (let i = 0; i < 40 && !server.requests.some((r) => r.method === "GET"); i++) {
      await new Promise((r) => setTimeout(r, 50)); // bounded: 2 s
    }
    assert.equal(server.requests.filter((r) => r.method === "GET").length, 1);
  });
});

describe("the skill template", () => {
  test("a skill the listing lacks is read through the skill://{name} template", async () => {
    const server = await startSdkServer({
      json: true,
      skills: { listed: skillDoc("listed") },
      unlisted: { hidden: skillDoc("hidden", "Hidden. Use when reading through the template.") },
    });
    const team = createMcpSkillSource({ name: "team", url: server.url });
    try {
      assert.deepEqual(await team.list({ signal: AbortSignal.timeout(5_000) }), ["listed"]);
      const hit = await createResolver({ sources: [team] }).resolve("hidden");
      assert.equal(hit.source, "mcp:team");
      assert.equal(hit.location, "skill://hidden");
      assert.equal(hit.skill.description, "Hidden. Use when reading through the template.");
      const reads = server.requests.filter((r) => r.rpc === "resources/read");
      assert.ok(reads.length >= 1, "the skill was read from the server");
    } finally {
      await team.dispose();
      await server.close();
    }
  });
});
