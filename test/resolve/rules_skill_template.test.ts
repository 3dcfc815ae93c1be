// A resources server that offers the `skill://{name}` template can hold skills its listing
// lacks: the MCP source reads them through the template. A server without the template is
// trusted to list everything. Real SDK servers over HTTP on 127.0.0.1.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createMcpSkillSource } from "../../lib/resolve/mcp_source.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { startSdkServer } from "../mcp/_servers.ts";
import { skillDoc } from "./_helpers.ts";

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
