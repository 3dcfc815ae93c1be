// What the MCP skill source keeps of a server's listing, against the scripted lab server and the
// skills stub: list-changed notifications of either kind drop it, any other keeps it; the server's
// cache hint for resources/list decides its expiry; a failed listing is forgotten; a server
// without resources says no to every name; a summary's digest is its SKILL.md's.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, describe, test } from "node:test";
import { waitUntil } from "../_wait.ts";
import { initialize, startFaultServer } from "../mcp/_fault_server.ts";
import { rpcError, startSkillsStub } from "../mcp/_skills_stub.ts";
import { mcpSources } from "./_helpers.ts";
import { withLab } from "./_lab.ts";

const { source, disposeAll } = mcpSources();
const signal = () => new AbortController().signal;
after(disposeAll);

describe("notifications", () => {
  test("either list-changed kind drops the listing; any other notification keeps it", async () => {
    await withLab(async (lab) => {
      const heard: string[] = [];
      let changes = 0;
      const team = source(lab.url, {
        watch: true,
        ttlMs: 600_000,
        onListChanged: () => changes++,
        connect: { onNotification: (message) => heard.push(message.method) },
      });
      assert.deepEqual(await team.list({ signal: signal() }), ["star"]);
      await waitUntil(() => lab.streams.length === 1, 10_000);
      lab.notify("notifications/message", { level: "info", data: "indexing" });
      await waitUntil(() => heard.includes("notifications/message"), 10_000);
      await team.list({ signal: signal() });
      assert.deepEqual([lab.count("resources/list"), changes], [1, 0], "a log message keeps it");
      lab.notify("notifications/skills/list_changed");
      await waitUntil(() => changes === 1, 10_000);
      await team.list({ signal: signal() });
      assert.equal(lab.count("resources/list"), 2, "listed again after skills/list_changed");
      lab.notify("notifications/resources/list_changed");
      await waitUntil(() => changes === 2, 10_000);
      await team.list({ signal: signal() });
      assert.equal(lab.count("resources/list"), 3, "listed again after resources/list_changed");
    });
  });

  test("without onListChanged or an onNotification of its own, nothing throws", async () => {
    await withLab(async (lab) => {
      const logs: string[] = [];
      const team = source(lab.url, {
        watch: true,
        ttlMs: 600_000,
        connect: { log: (line) => logs.push(line) },
      });
      await team.list({ signal: signal() });
      await waitUntil(() => lab.streams.length === 1, 10_000);
      lab.notify("notifications/resources/list_changed");
      for (let i = 0; i < 500 && lab.count("resources/list") < 2; i++) {
        await team.list({ signal: signal() }); // a cached listing asks nothing
        await new Promise((r) => setTimeout(r, 20)); // bounded: 10 s
      }
      assert.equal(lab.count("resources/list"), 2, "the listing was dropped");
      assert.deepEqual(logs.filter((line) => /threw/.test(line)), []);
    });
  });
});

describe("the listing cache", () => {
  const star = { uri: "skill://star", name: "star", mimeType: "text/markdown" };

  test("the server's cache hint for resources/list decides the listing's expiry", async () => {
    const stub = await startSkillsStub({
      "resources/list": () => ({ resources: [star], ttlMs: 0 }),
    }, true);
    try {
      const team = source(stub.url, { ttlMs: 600_000 });
      await team.list({ signal: signal() });
      await new Promise((r) => setTimeout(r, 5)); // past the hint's (zero) lifetime
      await team.list({ signal: signal() });
      assert.equal(stub.calls.filter((m) => m === "resources/list").length, 2);
    } finally {
      await stub.close();
    }
  });

  test("a failed listing is forgotten: the next cold lookup still reads speculatively", async () => {
    let lists = 0;
    const stub = await startSkillsStub({
      "resources/list": () => lists++ === 0 ? { resources: "not a list" } : { resources: [star] },
      "resources/read": () => rpcError(-32002, "Resource not found"),
    }, true);
    try {
      const team = source(stub.url);
      await assert.rejects(team.list({ signal: signal() }));
      assert.equal(await team.get("nobody", { signal: signal() }), undefined);
      assert.equal(stub.calls.filter((m) => m === "resources/read").length, 1, stub.calls.join());
    } finally {
      await stub.close();
    }
  });

  test("a server without resources says no to every name", async () => {
    const bare = await startFaultServer();
    bare.lifecycle = true;
    bare.script(initialize()); // tools only
    try {
      const team = source(bare.url);
      assert.equal(await team.peek!("star", { signal: signal() }), false);
      assert.equal(await team.get("star", { signal: signal() }), undefined);
      const asked = bare.received.map((r) => String(r.rpc?.method));
      assert.deepEqual(asked.filter((m) => m.startsWith("resources/")), [], asked.join(" "));
    } finally {
      await bare.close();
    }
  });

  test("a summary's digest is its SKILL.md's, wherever the entry lists that file", async () => {
    const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
    const doc = "---\nname: star\ndescription: The star skill.\n---\n\nBody\n";
    const notes = "Notes on STAR.\n";
    const stub = await startSkillsStub({
      "skills/list": () => ({
        skills: [{
          uri: "skill://star/SKILL.md",
          frontmatter: { name: "star", description: "The star skill." },
          resources: [
            { uri: "skill://star/NOTES.md", digest: sha(notes), size: notes.length },
            { uri: "skill://star/SKILL.md", digest: sha(doc), size: doc.length },
          ],
        }],
      }),
    });
    try {
      const [summary] = await source(stub.url).summaries!({ signal: signal() });
      assert.equal(summary.digest, sha(doc));
    } finally {
      await stub.close();
    }
  });
});
