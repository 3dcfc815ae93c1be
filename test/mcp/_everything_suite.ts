// One server-everything over Streamable HTTP for a test file, and a `connect` whose clients are
// closed after each test, passed or failed (a listening client holds the process).
import { after, afterEach, before } from "node:test";
import { connect as connectTo } from "../../lib/mcp/client/client.ts";
import type { McpClient } from "../../lib/mcp/client/client_types.ts";
import { startEverything, type TestServer } from "./_servers.ts";

/** Registers the hooks; call at the top level of a test file. */
export function everythingSuite(): {
  server: () => TestServer;
  connect: (...args: Parameters<typeof connectTo>) => Promise<McpClient>;
} {
  let everything: TestServer;
  before(async () => {
    everything = await startEverything("streamableHttp");
  });
  after(() => everything.close());
  const open: McpClient[] = [];
  afterEach(() => Promise.all(open.splice(0).map((client) => client.close())));
  return {
    server: () => everything,
    connect: async (...args) => {
      const client = await connectTo(...args);
      open.push(client);
      return client;
    },
  };
}
