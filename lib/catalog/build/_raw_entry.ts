// Private: an entry before it has an id and an approval state, and what the entries of every kind
// share: the endpoint a registered server's entries are tied to, canonical definitions, their
// digests (once per process), parameter words and text limits.

import { BoundedCache } from "../../_bounded_cache.ts";
import type { McpServerConfig } from "../../mcp/protocol/types.ts";
import { encoder, sha256Digest } from "../../_digest.ts";
import { cleanLine } from "../../_text_clean.ts";
import type { CatalogEntry, HostFunction, JsonSchema, ToolTarget } from "../model/types.ts";

/** An entry before it has an id and an approval state. */
export interface RawEntry extends Omit<CatalogEntry, "id" | "approval"> {
  /** The id it would like (a name, or `server__tool`). */
  preferredId: string;
  /** The definition as text, for approval diffs. */
  definition: string;
  /** MCP tools: where it runs. */
  target?: ToolTarget;
  /** Host functions: the function. */
  fn?: HostFunction;
  /** Skills: their example tasks (also in `keywords`), weighed like tags for relevance. */
  tasks?: string[];
  /** Skills: labels of lower sources that have a skill of the same name. */
  shadows?: string[];
  /**
   * Skills: a lower source's version, read because the winner is held for approval; it answers
   * under the winner's id while the winner waits.
   */
  alternate?: boolean;
  /** Entries of a registered server: where it runs (its URL, or its stdio command and args). */
  endpoint?: string;
  /**
   * Names the entry's keyword document besides its id: equal keys, equal documents (the index
   * segment of a source whose keys did not change is reused).
   */
  indexKey?: string;
}

/**
 * Where a registered server runs, as approvals record it: its URL, or its stdio program and
 * arguments. An approval holds for this endpoint only.
 */
export function endpointOf(server: McpServerConfig): string {
  return server.url !== undefined
    ? `url ${server.url}`
    : `stdio ${JSON.stringify([server.command ?? "", ...(server.args ?? [])])}`;
}

/** `raw` tied to `endpoint`: the endpoint is recorded with its approval and leads its diff. */
export function atEndpoint(raw: RawEntry, endpoint: string): RawEntry {
  return { ...raw, endpoint, definition: `endpoint: ${endpoint}\n${raw.definition}` };
}

/** Longest description kept, in characters. */
export const DESCRIPTION_MAX = 1_024;
/** Longest keyword kept, in characters. */
export const WORD_MAX = 200;

/** JSON with object keys sorted at every level, so equal definitions give equal digests. */
export function canonicalJson(value: unknown, indent?: number): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v !== null && typeof v === "object"
      ? Object.fromEntries(
        Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      )
      : v;
  return JSON.stringify(sort(value), null, indent);
}

/** Digests of definitions seen in this process: a warm build digests nothing it digested before. */
const digests = new BoundedCache<string, Promise<string>>(20_000);
export const digestOf = (text: string): Promise<string> => {
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = sha256Digest(encoder.encode(text));
    digests.set(text, digest);
    digest.catch(() => digests.delete(text));
  }
  return digest;
};

/** Parameter names and descriptions of a JSON Schema, for ranking. */
export function parameterWords(schema: JsonSchema | undefined): string[] {
  const props = schema?.properties;
  if (props === null || typeof props !== "object") return [];
  return Object.entries(props as Record<string, { description?: unknown }>).flatMap((
    [name, prop],
  ) => [name, typeof prop?.description === "string" ? prop.description : ""])
    .map((w) => cleanLine(w, WORD_MAX)).filter(Boolean);
}
