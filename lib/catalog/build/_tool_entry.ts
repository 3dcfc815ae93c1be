// Private: the catalog entry of an MCP tool, made once per process for the same tool of the same
// server; its flags when its description or input schema seems to address the model.

import { BoundedCache } from "../../_bounded_cache.ts";
import type { Tool } from "../../mcp/protocol/types.ts";
import { mcpProvenance } from "../../resolve/provenance.ts";
import {
  canonicalJson,
  DESCRIPTION_MAX,
  digestOf,
  parameterWords,
  type RawEntry,
} from "./_raw_entry.ts";
import { schemaFlags } from "../../_schema_text.ts";
import { addressesModel, cleanLine } from "../../_text_clean.ts";
import type { ToolTarget } from "../model/types.ts";

/** `{ flags }` when a remote tool's description or any string of its input schema addresses the model. */
function toolFlags(title: string | undefined, tool: Tool): { flags?: string[] } {
  const flags = [
    ...addressesModel(`${title ?? ""}\n${tool.description ?? ""}`).map((why) =>
      `its description ${why}`
    ),
    ...schemaFlags(tool.inputSchema),
  ];
  return flags.length > 0 ? { flags } : {};
}

/**
 * Tool entries (without their target) by server and tool: a listing seen before is not redone.
 * The least recently used is forgotten first.
 */
const toolEntries = new BoundedCache<string, Promise<RawEntry>>(20_000, "used");

/** The entry of `tool` of `server`, made once per process for the same tool. */
export async function toolEntry(
  server: string,
  tool: Tool,
  target: ToolTarget,
  open: boolean,
): Promise<RawEntry> {
  const key = `${server}\u0000${open}\u0000${JSON.stringify(tool)}`;
  let made = toolEntries.get(key);
  if (!made) toolEntries.set(key, made = newToolEntry(server, tool, open));
  made.catch(() => toolEntries.delete(key));
  return { ...await made, target };
}

async function newToolEntry(server: string, tool: Tool, open: boolean): Promise<RawEntry> {
  const title = tool.title ??
    (typeof tool.annotations?.title === "string" ? tool.annotations.title : undefined);
  const definition = canonicalJson({
    name: tool.name,
    title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  }, 2);
  const entry: RawEntry = {
    kind: "tool",
    name: tool.name,
    preferredId: `${server}__${tool.name}`,
    ...(title ? { title: cleanLine(title, 120) } : {}),
    description: cleanLine(tool.description ?? "", DESCRIPTION_MAX),
    source: mcpProvenance(server),
    server,
    tags: [],
    keywords: parameterWords(tool.inputSchema),
    needsConnection: !open,
    remote: true,
    ...toolFlags(title, tool),
    digest: await digestOf(definition),
    inputSchema: tool.inputSchema,
    definition,
  };
  entry.indexKey = entry.digest;
  return entry;
}
