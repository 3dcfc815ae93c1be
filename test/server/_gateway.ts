// Helpers for the gateway tests: a registry (memory storage) with servers added, approvals kept
// in that storage under the `require` policy, and `approve()`, which records approvals the way
// `skillmux approve` does from another process: through a catalog of its own over the same
// storage (the gateway notices by polling).
import { createCatalog } from "../../lib/catalog/build/catalog.ts";
import { createServerRegistry, type ServerRegistry } from "../../lib/mcp/registry/registry.ts";
import type { McpServerConfig } from "../../lib/mcp/protocol/types.ts";
import type { ConnectOptions } from "../../lib/mcp/client/connect_options.ts";
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

/** Register `servers` (their tools are discovered on add, `connect` e.g. `{ stdio: stdio() }`). */
export async function registered(
  servers: McpServerConfig[],
  connect?: ConnectOptions,
): Promise<Registered> {
  const storage = createMemoryStorage();
  const registry = createServerRegistry({ storage, connect });
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

/** A stateless SDK server on 127.0.0.1 with one tool, `wait`, whose call never ends until close. */
export async function startHangingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const { StreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/streamableHttp.js"
  );
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import(
    "@modelcontextprotocol/sdk/types.js"
  );
  const http = await import("node:http");
  const { listenLocal } = await import("../mcp/_servers.ts");
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  const server = http.createServer(async (req, res) => {
    const chunks: Uint8Array[] = [];
    for await (const chunk of req) chunks.push(chunk as Uint8Array);
    const mcp = new McpServer({ name: "hang", version: "1" }, { capabilities: { tools: {} } });
    mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "wait", description: "Wait forever", inputSchema: { type: "object" } }],
    }));
    mcp.server.setRequestHandler(CallToolRequestSchema, async () => {
      await released; // the hang: no answer, no progress
      return { content: [] };
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => void transport.close().catch(() => {}));
    await mcp.connect(transport);
    const text = Buffer.concat(chunks).toString();
    await transport.handleRequest(req, res, text === "" ? undefined : JSON.parse(text));
  });
  const listening = await listenLocal(server);
  return {
    url: `http://127.0.0.1:${listening.port}/mcp`,
    close: async () => {
      release();
      await listening.close();
    },
  };
}
