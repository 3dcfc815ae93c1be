// Stateless serveSkills reuses idle MCP servers across requests: concurrent requests on many
// clients must each get their own answer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect } from "../../lib/mcp/client/client.ts";
import { builtinSkillNames } from "../../lib/resolve/builtin_source.ts";
import { serveSkills } from "../../lib/server/mod.ts";

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
