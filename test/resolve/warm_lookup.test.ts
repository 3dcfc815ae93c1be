// A warm lookup reads only the server whose cached listing names the skill (issue 27): servers
// above it with a skill://{name} template but no such skill listed are not read on a guess.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createMcpSkillSource, type McpSkillSource } from "../../lib/resolve/mcp_source.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";

const skill = (name: string) =>
  `---\nname: ${name}\ndescription: ${name} notes. Use when testing.\n---\nBody\n`;
let servers: SdkServer[] = [];
let sources: McpSkillSource[] = [];
const reads = () =>
  servers.reduce((n, s) => n + s.requests.filter((r) => r.rpc === "resources/read").length, 0);

before(async () => {
  servers = await Promise.all(
    [0, 1, 2].map((i) =>
      startSdkServer({ json: true, skills: { [`own-${i}`]: skill(`own-${i}`) } })
    ),
  );
  sources = servers.map((s, i) => createMcpSkillSource({ name: `s${i}`, url: s.url }));
});
after(async () => {
  await Promise.all(sources.map((s) => s.dispose()));
  await Promise.all(servers.map((s) => s.close()));
});

test("a warm hit on the third server costs one read", async () => {
  const resolver = createResolver({ sources: [sources], timeoutMs: 30_000 });
  assert.equal((await resolver.resolve("own-2")).source, "mcp:s2"); // cold: listings cached
  const start = reads();
  const hit = await resolver.resolve("own-2");
  assert.equal(hit.source, "mcp:s2");
  assert.equal(reads() - start, 1, "only the server whose listing names it is read");
  // A name no listing has is still tried through the templates, in order.
  const missing = await resolver.resolve("nobody").catch((e) => e);
  assert.equal(missing.name, "SkillNotFoundError");
});
