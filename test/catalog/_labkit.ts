// Fixture of the evaluation and findTools tests (evaluate.test.ts, find_tools.test.ts): a
// catalog of the built-in skills, a real MCP tool server on 127.0.0.1 registered as `labkit`
// (its tool approved), and host functions, one of them named `none`.
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
} from "../../lib/mod.ts";
import { startToolServer } from "./_servers.ts";

/** Starts the `labkit` server and builds the catalog; `close` disposes of both. */
export async function startLabkit(): Promise<{ catalog: Catalog; close: () => Promise<void> }> {
  const server = await startToolServer([{
    name: "convert_units",
    description: "Convert a quantity between units of length and mass",
    inputSchema: { type: "object", properties: { value: { type: "number" } } },
  }]);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "labkit", url: server.url });
  const catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry,
    functions: [
      { name: "lookup", description: "Look a sample up", handler: () => "S1" },
      { name: "none", description: "Do nothing at all", handler: () => "" },
      {
        name: "lookup_sample",
        description: "Find a sample's FASTQ reads by sample id",
        handler: () => [],
      },
    ],
    approvals: { storage: createMemoryStorage(), remote: "require" },
  });
  await catalog.approve(["labkit__convert_units"]);
  return {
    catalog,
    close: async () => {
      catalog.dispose();
      await server.close();
    },
  };
}
