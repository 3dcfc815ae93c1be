// Private: the registry's cached discoveries a catalog build lists tools from, refreshed when
// missing or too old, with a diagnostic for each server that could not be asked (slow servers
// said as such: `timeout`, never `unreachable`).

import type { ServerRegistry } from "../../mcp/registry/registry.ts";
import type { ServerDiscovery } from "../../mcp/registry/discover.ts";
import type { McpServerConfig } from "../../mcp/protocol/types.ts";
import { mcpProvenance } from "../../resolve/provenance.ts";
import type { CatalogDiagnostic } from "../model/types.ts";

/**
 * The registry's cached discovery of each of `servers`, re-discovered (all in one refresh, in
 * parallel) when missing or older than allowed.
 */
export async function discoveries(
  registry: ServerRegistry,
  servers: readonly McpServerConfig[],
  sources: { maxAgeMs: number; timeoutMs: number; signal?: AbortSignal },
  diagnostics: CatalogDiagnostic[],
): Promise<Array<ServerDiscovery | undefined>> {
  const cached = await Promise.all(
    servers.map((server) => registry.discovery(server.name).catch(() => undefined)),
  );
  const now = Date.now();
  const stale = servers.filter((_, i) => {
    const found = cached[i];
    return !found || now - Date.parse(found.discoveredAt) > sources.maxAgeMs;
  });
  if (stale.length === 0) return cached;
  let rows: Array<
    { ok: true; discovery: ServerDiscovery } | { ok: false; error: string; kind?: string }
  >;
  try {
    rows = await registry.refresh(stale.map((s) => s.name), {
      signal: sources.signal,
      timeoutMs: sources.timeoutMs,
      deadlineMs: sources.timeoutMs * 2,
    });
  } catch (error) {
    if (sources.signal?.aborted) throw error;
    rows = stale.map(() => ({
      ok: false,
      error: (error as Error).message,
      kind: (error as Error).name,
    }));
  }
  return servers.map((server, i) => {
    if (!stale.includes(server)) return cached[i];
    const row = rows[stale.indexOf(server)];
    if (row?.ok) return row.discovery;
    const label = mcpProvenance(server.name);
    const why = row && !row.ok ? row.error : "no answer";
    // A server that did not answer in time is slow, not down: said so, never "unreachable".
    const slow = row !== undefined && !row.ok && row.kind === "TimeoutError";
    const old = cached[i];
    diagnostics.push(
      old
        ? {
          source: label,
          problem: "stale",
          message: `${label}: cannot re-discover (${
            slow ? `slow: ${why}` : why
          }); using the tools cached at ${old.discoveredAt}`,
        }
        : {
          source: label,
          problem: slow ? "timeout" : "unreachable",
          message: slow
            ? `${label}: slow: no tools yet, it did not answer in time: ${why}`
            : `${label}: cannot discover tools: ${why}`,
        },
    );
    return old;
  });
}
