/**
 * `createCatalog`: skills, MCP tools and host functions as one list.
 *
 * @module
 */

import type { Catalog, CreateCatalogOptions } from "../model/types.ts";

/**
 * Build a catalog of skills (from `resolver`), MCP tools (from `registry` and
 * `clients`) and host `functions`. It is built once; call `refresh()` to
 * rebuild (the registry's changes trigger one by themselves). Every entry gets
 * an id that is a valid OpenAI and Anthropic tool name, unique across servers
 * (`everything__echo`), and maps back exactly through `get(id)`.
 *
 * Registered servers are listed from the registry's discovery cache while it is
 * fresh (`discoveryMaxAgeMs`), so they appear without a connection; a missing
 * or stale cache is refreshed, and a server that cannot be reached keeps its
 * last cached tools with a diagnostic (or is left out). Text from remote
 * servers is cleaned: hidden, bidirectional-control and tag characters
 * removed, newlines collapsed, length capped.
 *
 * Approvals (the rug-pull guard, see `ApprovalOptions`): remote tools and
 * skills wait for `approve()` by default; a definition that changes after its
 * approval is held with a diff in `held` and kept out of `entries`, ranking,
 * rendering and prompts until approved again.
 *
 * @example Skills, a registered server's tools and a host function
 * ```ts
 * import { createBuiltinSource, createCatalog, createMemoryStorage, createResolver, createServerRegistry } from "@skillmux/core";
 * const catalog = await createCatalog({
 *   resolver: createResolver({ sources: [createBuiltinSource()] }),
 *   registry: createServerRegistry({ storage: createMemoryStorage() }),
 *   functions: [{
 *     name: "lookup_sample",
 *     description: "Find a sample's FASTQ files by sample id",
 *     handler: ({ id }) => [`${id}_R1.fastq.gz`],
 *   }],
 * });
 * console.log(catalog.rank("sort and index my BAM file")[0].entry.id); // "samtools"
 * console.log((await catalog.render({ budget: 2_000 })).text);
 * ```
 */
export async function createCatalog(options: CreateCatalogOptions = {}): Promise<Catalog> {
  const { buildCatalog } = await import("./_catalog.ts");
  return await buildCatalog(options);
}
