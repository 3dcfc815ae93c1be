// Fixtures of the selection tests (select*.test.ts): real catalogs of the built-in skills and a
// real MCP tool server on 127.0.0.1. `demo`: twelve plain tools t0…t11, approved on sight. `lab`:
// twelve tools that each hold "zorblax" once (evidence 2, the floor), a tool named like another
// tool's id, a strong and a weak "quintile" tool and one of a 100-character name; with a second
// catalog of the same tools held for approval.
import {
  type Catalog,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
} from "../../lib/mod.ts";
import { startToolServer, type TestTool } from "./_servers.ts";

const tool = (name: string, description: string): TestTool => ({
  name,
  description,
  inputSchema: { type: "object" },
});

/** The demo server's twelve tools. */
export const DEMO_TOOLS: TestTool[] = Array.from(
  { length: 12 },
  (_, i) => tool(`t${i}`, `Tool number ${i} of the demo server`),
);

/** Twelve tools that each hold "zorblax" once in their description (evidence 2, the floor). */
export const FLUX = Array.from(
  { length: 12 },
  (_, i) => tool(`flux${i}`, `Measures the zorblax flux of channel ${i}`),
);
/** The name of the lab server's last tool. */
export const LONG_NAME = "x".repeat(100);
const LAB_TOOLS: TestTool[] = [
  ...FLUX,
  // Named like the id of flux1 (lab__flux1): the id is lab__lab__flux1.
  tool("lab__flux1", "Named like another tool's id"),
  tool("quintile_strong", "Quintile binning of quintile values for quintile tables"),
  tool(
    "weak_one",
    "A long description that mentions quintile once among many other words about pipelines cohorts registries archives and ledgers",
  ),
  tool(LONG_NAME, "A tool with a very long name"),
];
/** Built-in skills the lab tests name. */
export const SKILLS = ["samtools", "bwa", "bcftools", "gatk", "fastqc", "star", "salmon"];

/** Starts a server of `tools` registered as `name` and a catalog of it and the built-ins. */
async function start(name: string, tools: TestTool[]) {
  const server = await startToolServer(tools);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name, url: server.url });
  const catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry,
    approvals: { storage: createMemoryStorage(), remote: "auto" },
  });
  return { server, registry, catalog };
}

/** The `demo` catalog; `close` disposes of it and stops its server. */
export async function startDemo(): Promise<{ catalog: Catalog; close: () => Promise<void> }> {
  const { server, catalog } = await start("demo", DEMO_TOOLS);
  return { catalog, close: async () => (catalog.dispose(), await server.close()) };
}

/** The `lab` catalog, and `held`: its tools held for approval (remote entries need it by default). */
export async function startLab(): Promise<
  { catalog: Catalog; held: Catalog; close: () => Promise<void> }
> {
  const { server, registry, catalog } = await start("lab", LAB_TOOLS);
  const held = await createCatalog({ registry, approvals: { storage: createMemoryStorage() } });
  return {
    catalog,
    held,
    close: async () => {
      catalog.dispose();
      held.dispose();
      await server.close();
    },
  };
}
