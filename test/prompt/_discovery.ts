// The tool discovery tests' catalog: two host functions (lookup_sample, plot_coverage), a user
// skill in memory (samtools) and one real MCP tool server on 127.0.0.1 (units); and the helpers
// that call find_tools and read an Anthropic result's text.
import assert from "node:assert/strict";
import {
  type Catalog,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type HostFunction,
  type ToolCallResult,
} from "../../lib/mod.ts";
import { startToolServer } from "../catalog/_servers.ts";

/** A host function finding a sample's FASTQ files. */
export const lookup: HostFunction = {
  name: "lookup_sample",
  description: "Find a sample's FASTQ files by sample id",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  handler: ({ id }) => [`${id}_R1.fastq.gz`],
};
/** A host function plotting coverage. */
export const plot: HostFunction = {
  name: "plot_coverage",
  description: "Plot read coverage along a genome",
  inputSchema: { type: "object", properties: {} },
  handler: () => "plotted",
};
/** The user skill `samtools`. */
export const SKILL =
  "---\nname: samtools\ndescription: Sort and index BAM files.\n---\n## Steps\n\nRun samtools sort.\n";

/** The catalog, started; `close` disposes it and stops the tool server. */
export async function startDiscoveryCatalog(): Promise<{
  catalog: Catalog;
  close(): Promise<void>;
}> {
  const units = await startToolServer([{
    name: "convert_units",
    description: "Convert a quantity between units of length and mass",
    inputSchema: { type: "object", properties: { value: { type: "number" } } },
  }]);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "units", url: units.url });
  const catalog = await createCatalog({
    registry,
    resolver: createResolver({
      sources: [createStorageSource({
        label: "user",
        storage: createMemoryStorage({ initial: { "samtools.md": SKILL } }),
      })],
    }),
    functions: [lookup, plot],
    approvals: { storage: createMemoryStorage(), remote: "auto" },
  });
  return {
    catalog,
    close: async () => {
      catalog.dispose();
      await units.close();
    },
  };
}

/** A find_tools call in the Anthropic format. */
export const find = (query: unknown, id = "f1") => ({
  type: "tool_use" as const,
  id,
  name: "find_tools",
  input: { query },
});
/** The text of a result in the Anthropic format. */
export function text(result: ToolCallResult): string {
  assert.equal(result.format, "anthropic");
  if (result.format !== "anthropic") return "";
  return result.reply.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}
