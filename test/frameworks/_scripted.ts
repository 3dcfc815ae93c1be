// Shared by the framework tests: a catalog over a live server-everything (its tools approved but
// get-env, which stays held), a server whose tools are never approved, and host functions, one
// of which waits until its call is cancelled.
import { after, before } from "node:test";
import {
  type Catalog,
  createCatalog,
  createMemoryStorage,
  createServerRegistry,
  type HostFunction,
} from "../../lib/mod.ts";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { startToolServer } from "../catalog/_servers.ts";

/** What the cancelled host function saw. */
export const waits = { started: 0, reasons: [] as string[] };

const functions: HostFunction[] = [
  {
    name: "record_result",
    description: "Record a number in the lab notebook",
    inputSchema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
    handler: ({ value }) => `recorded ${value}`,
  },
  {
    name: "wait_for_instrument",
    description: "Wait until the sequencing instrument finishes its run",
    inputSchema: { type: "object", properties: {} },
    handler: (_args, { signal }) => {
      waits.started++;
      return new Promise((_resolve, reject) => {
        signal.addEventListener(
          "abort",
          () => (waits.reasons.push(String(signal.reason)), reject(signal.reason)),
          {
            once: true,
          },
        );
      });
    },
  },
];

/** Registers the hooks; call at the top level of a test file. */
export function frameworkSuite(): {
  catalog: () => Catalog;
  shadyCalls: () => string[];
} {
  let everything: TestServer;
  let shady: Awaited<ReturnType<typeof startToolServer>>;
  let catalog: Catalog;
  before(async () => {
    everything = await startEverything("streamableHttp");
    shady = await startToolServer([{
      name: "weather_forecast",
      description: "Weather forecast for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } } },
    }]);
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "everything", url: everything.url });
    await registry.add({ name: "shady", url: shady.url });
    catalog = await createCatalog({
      registry,
      functions,
      approvals: { storage: createMemoryStorage(), remote: "require" },
    });
    await catalog.approve(
      catalog.held.map((h) => h.entry.id).filter((id) =>
        id.startsWith("everything__") && id !== "everything__get-env"
      ),
    );
  });
  after(async () => {
    catalog?.dispose();
    await Promise.all([everything?.close(), shady?.close()]);
  });
  return { catalog: () => catalog, shadyCalls: () => shady.calls };
}
