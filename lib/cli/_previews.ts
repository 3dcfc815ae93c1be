// Private: tool previews kept by the CLI. `mcp add --from-registry --no-verify` of an entry whose
// registry lists its tools (BioContext's mcp_tools.json) keeps them in cache/preview/<id>.json;
// the catalog commands list them for a server never connected (held until approved) instead of
// connecting to discover it.

import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolPreviews } from "../catalog/model/types.ts";
import type { ToolPreview } from "../mcp/directory/types.ts";
import type { Tool } from "../mcp/protocol/types.ts";

const file = (config: string, id: string) =>
  join(config, "cache", "preview", `${encodeURIComponent(id)}.json`);

/** Keep `tools` as the preview of server `id`. */
export async function savePreview(config: string, id: string, tools: readonly ToolPreview[]) {
  await mkdir(join(config, "cache", "preview"), { recursive: true, mode: 0o700 });
  const listed: Tool[] = tools.map((t) => ({
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    inputSchema: (t.inputSchema ?? { type: "object" }) as Tool["inputSchema"],
  }));
  await writeFile(file(config, id), JSON.stringify(listed), { mode: 0o600 });
}

/** The previews kept in `config`'s cache. */
export function cachedPreviews(config: string): ToolPreviews {
  return async (server) => {
    const text = await readFile(file(config, server.id), "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const tools = JSON.parse(text);
      return Array.isArray(tools) ? tools as Tool[] : undefined;
    } catch {
      return undefined; // a damaged preview only costs the discovery
    }
  };
}
