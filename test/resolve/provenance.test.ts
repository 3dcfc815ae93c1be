// Provenance labels (lib/resolve/provenance.ts): built, parsed and classified in one place; the
// resolver, the MCP source and the catalog use the same form.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  isRemoteProvenance,
  mcpProvenance,
  parseProvenance,
} from "../../lib/resolve/provenance.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";

test("mcpProvenance builds mcp:<server>, and parseProvenance takes it apart again", () => {
  for (const server of ["docs", "my-server", "a:b", ""]) {
    const label = mcpProvenance(server);
    assert.equal(label, `mcp:${server}`);
    assert.deepEqual(parseProvenance(label), { remote: true, server, label });
    assert.equal(isRemoteProvenance(label), true);
  }
});

test("local tiers, host and custom labels are not remote", () => {
  for (
    const label of ["user", "community", "builtin", "host", "team", "MCP:docs", "mcp", "xmcp:a"]
  ) {
    assert.equal(isRemoteProvenance(label), false, label);
    assert.deepEqual(parseProvenance(label), { remote: false, label });
  }
});

test("`<server>:<name>` asks only the source labelled mcp:<server>", async () => {
  const text = (by: string) =>
    `---\nname: demo\ndescription: Demo skill by ${by}. Use when testing.\n---\n`;
  const user = createMemoryStorage();
  await user.set("demo.md", text("user"));
  const remote = createMemoryStorage();
  await remote.set("demo.md", text("docs"));
  const resolver = createResolver({
    sources: [
      createStorageSource({ storage: user, label: "user" }),
      createStorageSource({ storage: remote, label: mcpProvenance("docs") }),
    ],
  });
  assert.equal((await resolver.resolve("demo")).source, "user");
  const routed = await resolver.resolve("docs:demo");
  assert.equal(routed.source, "mcp:docs");
  assert.equal(isRemoteProvenance(routed.source), true);
  assert.match(routed.skill.description, /by docs/);
});
