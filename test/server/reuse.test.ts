// Stateless serveSkills reuses idle MCP servers across requests, and with `sessions` keeps one
// server per session: concurrent requests on many clients must each get their own answer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect } from "../../lib/mcp/client/client.ts";
import { builtinSkillNames, createBuiltinSource } from "../../lib/resolve/builtin_source.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import type { Resolver } from "../../lib/resolve/types.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import { post } from "./_helpers.ts";

test("200 concurrent reads over 8 clients each get the skill they asked for", async () => {
  const server = await serveSkills();
  const clients = await Promise.all(
    Array.from({ length: 8 }, (_, i) => connect({ name: `c${i}`, url: server.url })),
  );
  try {
    const names = await builtinSkillNames();
    const asked = Array.from({ length: 200 }, (_, i) => names[(i * 7) % names.length]);
    const answers = await Promise.all(asked.map(async (name, i) => {
      const [contents] = await clients[i % clients.length].readResource(`skill://${name}`);
      return contents.text ?? "";
    }));
    answers.forEach((text, i) =>
      assert.ok(text.startsWith(`---\nname: ${asked[i]}\n`), `request ${i} asked ${asked[i]}`)
    );
    const tools = await Promise.all(clients.map((c) => c.listTools()));
    for (const list of tools) {
      assert.deepEqual(list.map((t) => t.name).sort(), [
        "get_skill",
        "read_skill_file",
        "search_skills",
      ]);
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  }
});

// Responses never cross sessions (the CVE-2026-25536 class: the official SDK once delivered one
// client's response to another when a server or transport was reused). Raw HTTP clients, so that
// every request carries the same JSON-RPC id on purpose; a resolver that answers after a random
// delay, so that answers finish out of order; and clients that hang up mid-request, so that a
// stateless server goes back to the idle pool while its handler still runs and serves the next
// request with the same id.

/** The built-in skills, each read after 0–30 ms. */
function slowResolver(): Resolver {
  const base = createResolver({ sources: [createBuiltinSource()] });
  return {
    sources: base.sources,
    list: (options) => base.list(options),
    resolve: async (name, options) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 30));
      return await base.resolve(name, options);
    },
  };
}

/** A JSON-RPC message as JSON, id 1 unless told. */
const rpc = (method: string, params: Record<string, unknown>, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

/** The text `resources/read` of `skill://<name>` (as request `id`) answered, or why not. */
async function readAs(url: string, name: string, headers: Record<string, string> = {}, id = 1) {
  const response = await post(url, headers, rpc("resources/read", { uri: `skill://${name}` }, id));
  const text = await response.text();
  if (response.status !== 200) return `HTTP ${response.status}: ${text}`;
  const answer = JSON.parse(text);
  if (answer.id !== id) return `id ${answer.id}`;
  return answer.result?.contents?.[0]?.text ?? JSON.stringify(answer);
}

test("stateless: 400 interleaved reads with one id, a quarter hung up mid-way, never cross", async () => {
  const server = await serveSkills({ resolver: slowResolver() });
  try {
    const names = await builtinSkillNames();
    const reads = Array.from({ length: 400 }, async (_, i) => {
      const name = names[(i * 7) % names.length];
      if (i % 4 === 3) {
        // Hang up while the handler waits: its server goes back to the pool mid-call.
        await post(server.url, {}, rpc("resources/read", { uri: `skill://${name}` }))
          .then(() => {}, () => {});
        const abort = new AbortController();
        const pending = fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: rpc("resources/read", { uri: `skill://${names[(i + 1) % names.length]}` }),
          signal: abort.signal,
        }).then((r) => r.body?.cancel(), () => {});
        setTimeout(() => abort.abort(), Math.random() * 15);
        await pending;
        return undefined;
      }
      return { name, text: await readAs(server.url, name) };
    });
    const answers = (await Promise.all(reads)).filter((a) => a !== undefined);
    assert.equal(answers.length, 300);
    for (const { name, text } of answers) {
      assert.ok(text.startsWith(`---\nname: ${name}\n`), `asked ${name}, got ${text.slice(0, 60)}`);
    }
  } finally {
    await server.close();
  }
});

test("sessions: 200 sessions whose ids collide, reading at once, each hear only their own", async () => {
  const server = await serveSkills({ sessions: true });
  try {
    const names = await builtinSkillNames();
    const sessions = await Promise.all(Array.from({ length: 200 }, async () => {
      const opened = await post(server.url);
      await opened.body?.cancel();
      const id = opened.headers.get("mcp-session-id")!;
      assert.ok(id, `initialize answered ${opened.status}`);
      const sent = await post(
        server.url,
        { "mcp-session-id": id },
        JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/initialized",
        }),
      );
      await sent.body?.cancel();
      return id;
    }));
    assert.equal(new Set(sessions).size, 200, "every session has its own id");
    const rounds = await Promise.all(sessions.flatMap((id, s) =>
      [0, 1].map(async (round) => {
        const name = names[(s * 2 + round) % names.length];
        const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
        // Ids 1 and 2 in every session: unique within it (JSON-RPC), colliding across them.
        return { name, text: await readAs(server.url, name, headers, round + 1) };
      })
    ));
    for (const { name, text } of rounds) {
      assert.ok(text.startsWith(`---\nname: ${name}\n`), `asked ${name}, got ${text.slice(0, 60)}`);
    }
  } finally {
    await server.close();
  }
});

test("sessions: a request reusing the id of one in flight is refused; the first gets its answer", async () => {
  const base = createResolver({ sources: [createBuiltinSource()] });
  const slow: Resolver = {
    sources: base.sources,
    list: (options) => base.list(options),
    resolve: async (name, options) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return await base.resolve(name, options);
    },
  };
  const server = await serveSkills({ resolver: slow, sessions: true });
  try {
    const opened = await post(server.url);
    await opened.body?.cancel();
    const headers = {
      "mcp-session-id": opened.headers.get("mcp-session-id")!,
      "mcp-protocol-version": "2025-06-18",
    };
    const read = (name: string) =>
      post(server.url, headers, rpc("resources/read", { uri: `skill://${name}` }));
    const first = read("samtools");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await read("bwa"); // id 1 again, while the first is in flight
    assert.equal(second.status, 400);
    const refusal = await second.json();
    assert.equal(refusal.error.code, -32600);
    assert.match(refusal.error.message, /id 1 is already used by a request in flight/);
    const answer = await (await first).json();
    assert.equal(answer.id, 1);
    assert.match(answer.result.contents[0].text, /^---\nname: samtools\n/);
    assert.match(await readAs(server.url, "bwa", headers), /^---\nname: bwa\n/, "free again");
  } finally {
    await server.close();
  }
});
