// The MCP skill source's session, listing cache and notifications (lib/resolve/mcp_source.ts;
// survivors of the third `resolve` run), against a scripted 2025 server ("lab", the fault server
// routing each method: it can hold any request unanswered and push any notification on its GET
// stream, which no real server does on demand), the skills stub and the registry:
// - list-changed notifications of either kind drop the listing, any other notification keeps it;
//   a source without `onListChanged` or an `onNotification` of its own throws nothing;
// - sources from a registry: disabled servers left out, the registry's hint used (no era probe),
//   and a list change drops the registry's discovery;
// - the session: a connection outlives the signal of the call that opened it; a connect the caller
//   gave up on never clears the one that replaced it; a server in its cooldown fails with a
//   `CircuitOpenError` naming it; a failing server's `peek` is "don't know", not a throw;
// - the caller's signal reaches every request (skills/list, resources/list, the template listing,
//   the speculative and the plain read): cancelling ends the call with the caller's reason at once;
// - the listing cache: a resources/list cache hint of the server decides its expiry; a failed
//   listing is forgotten, so the next cold lookup still reads speculatively; a server without
//   resources says no to every name; a summary's digest is its SKILL.md's, wherever the entry
//   lists that file.
import assert from "node:assert/strict";
import type http from "node:http";
import { createHash } from "node:crypto";
import { after, describe, test } from "node:test";
import { createMcpSkillSources } from "../../lib/resolve/mcp_source.ts";
import { createServerRegistry } from "../../lib/mcp/registry/registry.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import {
  type FaultServer,
  hangHeaders,
  initialize,
  rpcResult,
  startFaultServer,
  status,
} from "../mcp/_fault_server.ts";
import { rpcError, startSkillsStub } from "../mcp/_skills_stub.ts";
import { waitUntil } from "../_wait.ts";
import { mcpSources, skillDoc } from "./_helpers.ts";

const { source, keep, disposeAll } = mcpSources();
const signal = () => new AbortController().signal;
after(disposeAll);

/** A scripted 2025 server listing the skill `star` as a resource (see the top of this file). */
interface Lab {
  url: string;
  fault: FaultServer;
  /** Methods whose requests are held unanswered (until `close`). */
  hold: Set<string>;
  /** How many requests of `method` arrived. */
  count(method: string): number;
  /** The open GET streams. */
  streams: http.ServerResponse[];
  /** Push a notification on every open GET stream. */
  notify(method: string, params?: Record<string, unknown>): void;
  /** The `notifications/cancelled` received: the cancelled request's method and the reason. */
  cancels(): { method: string; reason: string }[];
  close(): Promise<void>;
}

async function startLab(options: { skills?: boolean } = {}): Promise<Lab> {
  const fault = await startFaultServer();
  fault.lifecycle = true; // server/discover refused: the client speaks 2025 (initialize)
  const hold = new Set<string>();
  const streams: http.ServerResponse[] = [];
  const capabilities = {
    resources: { listChanged: true },
    ...(options.skills ? { extensions: { "io.modelcontextprotocol/skills": {} } } : {}),
  };
  fault.fallback = ({ req, res, rpc }) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.flushHeaders();
      streams.push(res);
      return;
    }
    const method = rpc?.method;
    if (rpc?.id === undefined) return void res.writeHead(202).end();
    if (hold.has(method)) return; // never answered
    const result = method === "initialize"
      ? {
        protocolVersion: "2025-11-25",
        capabilities,
        serverInfo: { name: "lab", version: "1.0.0" },
      }
      : method === "resources/list"
      ? { resources: [{ uri: "skill://star", name: "star", mimeType: "text/markdown" }] }
      : method === "resources/templates/list"
      ? { resourceTemplates: [] }
      : method === "resources/read"
      ? {
        contents: [{
          uri: rpc.params.uri,
          mimeType: "text/markdown",
          text: skillDoc("star", "STAR. Use when mapping."),
        }],
      }
      : {};
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(rpcResult(rpc, result)));
  };
  const methods = () => fault.received.map((r) => r.rpc?.method as string | undefined);
  return {
    url: fault.url,
    fault,
    hold,
    streams,
    count: (method) => methods().filter((m) => m === method).length,
    notify(method, params) {
      const data = JSON.stringify({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
      for (const stream of streams) stream.write(`data: ${data}\n\n`);
    },
    cancels() {
      const byId = new Map(fault.received.map((r) => [r.rpc?.id, r.rpc?.method]));
      return fault.received.filter((r) => r.rpc?.method === "notifications/cancelled").map((r) => ({
        method: String(byId.get(r.rpc.params?.requestId)),
        reason: String(r.rpc.params?.reason),
      }));
    },
    close: () => fault.close(),
  };
}

/** Runs `fn` against a fresh lab, closed afterwards. */
async function withLab(
  fn: (lab: Lab) => Promise<void>,
  options: { skills?: boolean } = {},
): Promise<void> {
  const lab = await startLab(options);
  try {
    await fn(lab);
  } finally {
    await lab.close();
  }
}

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

describe("sources from a registry", () => {
  test("leave disabled servers out, use the registry's hint, and drop its discovery on a change", async () => {
    await withLab(async (lab) => {
      const storage = createMemoryStorage();
      const registry = createServerRegistry({ storage });
      await registry.import([
        { name: "lab", url: lab.url },
        { name: "off", url: `${lab.fault.origin}/off`, enabled: false },
      ]);
      // What an earlier process learnt of the server, as the registry keeps it: this process
      // never connected to it, so only the registry's hint can spare the era probe.
      const legacy = { era: "legacy", transport: "streamable-http", protocolVersion: "2025-11-25" };
      await storage.set(
        "cache/mcp/lab.json",
        JSON.stringify({
          name: "lab",
          discoveredAt: new Date().toISOString(),
          serverInfo: { name: "lab", version: "1.0.0" },
          protocolVersion: "2025-11-25",
          transport: "streamable-http",
          tools: [],
          resources: [],
          resourceTemplates: [],
          hint: legacy,
        }),
      );
      assert.deepEqual((await registry.discovery("lab"))?.hint, legacy);
      const logs: string[] = [];
      const made = await createMcpSkillSources(registry, {
        watch: true,
        connect: { log: (line) => logs.push(line) },
      });
      keep(...made);
      assert.deepEqual(made.map((s) => s.server.name), ["lab"]);
      assert.deepEqual(await made[0].list({ signal: signal() }), ["star"]);
      const asked = lab.fault.received.map((r) => r.rpc?.method);
      assert.ok(asked.includes("initialize"), asked.join(" "));
      assert.ok(!asked.includes("server/discover"), `no era probe: ${asked.join(" ")}`);
      await waitUntil(() => lab.streams.length >= 1, 10_000);
      lab.notify("notifications/resources/list_changed");
      let dropped = false;
      for (let i = 0; i < 500 && !dropped; i++) {
        dropped = (await registry.discovery("lab")) === undefined;
        if (!dropped) await new Promise((r) => setTimeout(r, 20)); // bounded: 10 s
      }
      assert.ok(dropped, "the registry's discovery was dropped");
      assert.deepEqual(logs.filter((line) => /threw/.test(line)), []);
    });
  });
});

describe("the session", () => {
  test("outlives the signal of the call that opened it", async () => {
    await withLab(async (lab) => {
      const team = source(lab.url);
      const opener = new AbortController();
      await team.list({ signal: opener.signal });
      opener.abort();
      assert.equal((await team.get("star", { signal: signal() }))?.location, "skill://star");
      assert.equal(lab.count("initialize"), 1);
    });
  });

  test("a connect the caller gave up on never clears the one that replaced it", async () => {
    await withLab(async (lab) => {
      lab.fault.script(hangHeaders()); // the first initialize is never answered
      const team = source(lab.url);
      const first = new AbortController();
      // Cold lookups: each asks for the session at once (a listing would wait for the first).
      const gaveUp = team.get("star", { signal: first.signal });
      await waitUntil(() => lab.count("initialize") === 1);
      first.abort();
      const next = team.get("star", { signal: signal() }); // the first is still being cancelled
      await assert.rejects(gaveUp);
      assert.equal((await next)?.location, "skill://star");
      await team.get("star", { signal: signal() });
      assert.equal(lab.count("initialize"), 2, "the second connection is the one used");
    });
  });

  test("a server in its cooldown fails with a CircuitOpenError naming it", async () => {
    const fault = await startFaultServer();
    fault.fallback = status(500, "down for maintenance");
    try {
      const flaky = source(fault.url);
      await assert.rejects(flaky.list({ signal: signal() }));
      const error = await flaky.list({ signal: signal() }).catch((e) => e);
      assert.equal(error.name, "CircuitOpenError");
      assert.equal(error.server, flaky.server.name);
      assert.equal(await flaky.peek!("star", { signal: signal() }), undefined, "peek: unknown");
    } finally {
      await fault.close();
    }
  });
});

describe("the caller's signal reaches every request", () => {
  /** Hold `method`, run `call` with a signal aborted once `method` arrived; its rejection. */
  async function cancelled(
    lab: Lab,
    method: string,
    call: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<unknown> {
    lab.hold.add(method);
    const caller = new AbortController();
    const before = lab.count(method);
    const settled = call(caller.signal).then(() => "resolved", (error) => error);
    await waitUntil(() => lab.count(method) > before);
    const reason = new Error("the caller gave up");
    caller.abort(reason);
    const outcome = await settled;
    assert.equal(outcome, reason, `${method}: ends with the caller's reason`);
    return outcome;
  }
  // The client's own request timeout is 5 s: a request the signal does not reach ends with that
  // (a TimeoutError), not with the caller's reason.
  const options = { connect: { timeoutMs: 5_000 } };

  test("resources/list", async () => {
    await withLab(async (lab) => {
      const team = source(lab.url, options);
      await cancelled(lab, "resources/list", (s) => team.list({ signal: s }));
    });
  });

  test("skills/list", async () => {
    await withLab(async (lab) => {
      const team = source(lab.url, options);
      await cancelled(lab, "skills/list", (s) => team.list({ signal: s }));
    }, { skills: true });
  });

  test("the speculative read of a cold lookup, and the read of a warm one", async () => {
    await withLab(async (lab) => {
      const cold = source(lab.url, options);
      await cancelled(lab, "resources/read", (s) => cold.get("star", { signal: s }));
    });
    await withLab(async (lab) => {
      const warm = source(lab.url, options);
      await warm.list({ signal: signal() });
      await cancelled(lab, "resources/read", (s) => warm.get("star", { signal: s }));
    });
  });

  test("the template listing: cancelled as the caller's, not left to time out", async () => {
    await withLab(async (lab) => {
      lab.hold.add("resources/templates/list");
      const team = source(lab.url, options);
      const caller = new AbortController();
      const listing = team.list({ signal: caller.signal }).catch((e) => e);
      await waitUntil(() => lab.count("resources/templates/list") === 1);
      caller.abort(new Error("the caller gave up"));
      await listing; // a failing template listing only means "no template"
      // (resources/list may be cancelled too: its answer can still be on the way.)
      const templates = () => lab.cancels().filter((c) => c.method === "resources/templates/list");
      await waitUntil(() => templates().length > 0, 8_000);
      assert.deepEqual(templates(), [
        { method: "resources/templates/list", reason: "aborted by the client" },
      ]);
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
