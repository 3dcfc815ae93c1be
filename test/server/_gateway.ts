// Helpers for the gateway tests: a registry (memory storage) with servers added, approvals kept
// in that storage under the `require` policy, and `approve()`, which records approvals the way
// `skillmux approve` does from another process: through a catalog of its own over the same
// storage (the gateway notices by polling).
import { createCatalog } from "../../lib/catalog/catalog.ts";
import { createServerRegistry, type ServerRegistry } from "../../lib/mcp/registry/registry.ts";
import type { McpServerConfig } from "../../lib/mcp/types.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import type { Storage } from "../../lib/storage/types.ts";

/** A registry and its approvals over one memory storage. */
export interface Registered {
  storage: Storage;
  registry: ServerRegistry;
  approvals: { storage: Storage; remote: "require" };
  /** Approve the tools whose catalog ids pass `which`; returns the ids approved. */
  approve(which: (id: string) => boolean): Promise<string[]>;
}

/** Register `servers` (their tools are discovered on add). */
export async function registered(servers: McpServerConfig[]): Promise<Registered> {
  const storage = createMemoryStorage();
  const registry = createServerRegistry({ storage });
  for (const server of servers) await registry.add(server);
  const approvals = { storage, remote: "require" as const };
  return {
    storage,
    registry,
    approvals,
    async approve(which) {
      const catalog = await createCatalog({ registry, approvals, follow: false });
      try {
        const ids = [...catalog.entries, ...catalog.held.map((h) => h.entry)]
          .filter((e) => e.kind === "tool" && which(e.id)).map((e) => e.id);
        await catalog.approve(ids);
        return ids;
      } finally {
        catalog.dispose();
      }
    },
  };
}
