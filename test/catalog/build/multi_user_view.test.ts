// A catalog over one user's view of a multi-user registry: the view lists the built-in virtual
// server (`builtin-skills`, no URL, no command) beside the user's own; the catalog lists the
// tools of the real servers and does not try to refresh the virtual one.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
} from "../../../lib/mod.ts";
import { createMultiUserRegistry } from "../../../lib/resolve/multi_user.ts";
import { startToolServer } from "../_servers.ts";

let server: Awaited<ReturnType<typeof startToolServer>>;
before(async () =>
  server = await startToolServer([{
    name: "echo",
    description: "Echoes back the text it is given",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  }])
);
after(() => server.close());

test("a catalog over a user's view lists the user's server tools beside the built-in virtual server", async () => {
  const registry = createMultiUserRegistry({
    storage: createMemoryStorage(),
    connect: { urlPolicy: { mode: "default" } }, // the test server is on loopback
  });
  const ada = registry.forUser("ada");
  await ada.add({ name: "demo", url: server.url });
  assert.deepEqual((await ada.list()).map((s) => s.name).sort(), ["builtin-skills", "demo"]);
  const catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry: ada,
    approvals: { storage: createMemoryStorage(), remote: "auto" },
  });
  try {
    const tools = catalog.entries.filter((e) => e.kind === "tool").map((e) => e.id);
    assert.deepEqual(tools, ["demo__echo"]);
    assert.ok(catalog.entries.some((e) => e.kind === "skill" && e.id === "samtools"));
    assert.deepEqual(
      catalog.diagnostics.filter((d) => /builtin-skills/.test(d.message)),
      [],
      catalog.diagnostics.map((d) => d.message).join("\n"),
    );
  } finally {
    catalog.dispose();
  }
});
