// The credentials a server echoes never reach what the registry keeps and returns (add, ping,
// refresh, the stored status, list) nor the resolver's diagnostics through its MCP source —
// the places a host shows to users and writes to logs. Real HTTP echo servers on 127.0.0.1.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createServerRegistry } from "../../../lib/mcp/registry/registry.ts";
import { REDACTED } from "../../../lib/mcp/policy/redact.ts";
import { createBuiltinSource } from "../../../lib/resolve/builtin_source.ts";
import { createMcpSkillSource } from "../../../lib/resolve/mcp_source.ts";
import { createResolver } from "../../../lib/resolve/resolver.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import { type EchoForm, startEchoServer } from "../_echo_server.ts";
import { API_KEY, assertNoLeak, HEADER_SECRET, rejectionOf } from "../_leak.ts";

const SECRETS = [API_KEY, HEADER_SECRET];
const credentials = { apiKey: API_KEY, headers: { "X-Api-Key": HEADER_SECRET } };

for (const [era, form] of [["legacy", "json"], ["legacy", "sse"], ["modern", "json"]] as const) {
  test(`registry (${era}, ${form}): add, ping, refresh, status and list show no secret`, async () => {
    const server = await startEchoServer({ era, form: form as EchoForm, failOn: "*" });
    const storage = createMemoryStorage();
    const logs: string[] = [];
    const registry = createServerRegistry({
      storage,
      connect: { timeoutMs: 5_000, log: (line) => logs.push(line), http: { retries: 0 } },
    });
    try {
      const refused = await rejectionOf(
        registry.add({ name: "echo", url: server.url, ...credentials }),
      );
      assert.match(refused.message, /invalid api key \[redacted\]/);
      assertNoLeak(refused, SECRETS, "add()");

      await registry.add({ name: "echo", url: server.url, ...credentials }, { discover: false });
      const [ping] = await registry.ping();
      assert.equal(ping.ok, false);
      assert.ok(!ping.ok && ping.error.includes(REDACTED), JSON.stringify(ping));
      assertNoLeak(ping, SECRETS, "ping()");
      const [refresh] = await registry.refresh();
      assert.equal(refresh.ok, false);
      assertNoLeak(refresh, SECRETS, "refresh()");

      const [listed] = await registry.list();
      assert.ok(listed.status, "the failed check is kept as the server's status");
      assertNoLeak(listed.status, SECRETS, "the stored status");
      for (const key of await storage.keys()) {
        if (key === "config.toml") continue; // holds the key by design (seal it with `secrets`)
        assertNoLeak(String(await storage.get(key)), SECRETS, `storage ${key}`);
      }
      assertNoLeak(logs, SECRETS, "the log");
      assert.ok(server.echoes >= 3, `the server echoed ${server.echoes} times`);
    } finally {
      await server.close();
    }
  });
}

test("resolver: the MCP source's diagnostic shows no secret; resolution goes on", async () => {
  const server = await startEchoServer({ era: "legacy", form: "sse", failOn: "*" });
  const logs: string[] = [];
  const mcp = createMcpSkillSource({ name: "echo", url: server.url, ...credentials }, {
    connect: { timeoutMs: 5_000, log: (line) => logs.push(line), http: { retries: 0 } },
  });
  try {
    const resolver = createResolver({ sources: [mcp, createBuiltinSource()] });
    const hit = await resolver.resolve("samtools");
    assert.equal(hit.source, "builtin");
    const diagnostic = hit.diagnostics.find((d) => d.source === "mcp:echo");
    assert.ok(diagnostic, JSON.stringify(hit.diagnostics));
    assert.ok(diagnostic.message.includes(REDACTED), diagnostic.message);
    assertNoLeak(hit.diagnostics, SECRETS, "the diagnostics");
    const missing = await rejectionOf(resolver.resolve("no-such-skill-anywhere"));
    assertNoLeak(missing, SECRETS, "SkillNotFoundError");
    assertNoLeak(
      (missing as Error & { diagnostics?: unknown }).diagnostics,
      SECRETS,
      "its diagnostics",
    );
    assertNoLeak(logs, SECRETS, "the log");
    assert.ok(server.echoes > 0);
  } finally {
    await mcp.dispose();
    await server.close();
  }
});
