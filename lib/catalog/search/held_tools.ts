/**
 * Held tools, said: the tools and functions of a catalog that wait for a person's approval (by
 * default every remote tool until approved), which `findTools` never returns and no adapter
 * offers. {@linkcode findHeldTools} finds those that fit a query, as `findTools` finds callable
 * ones; {@linkcode heldToolsNotice} says in one sentence what waits and how to approve it, for a
 * model (`find_tools` answers with it) or a developer (the framework adapters' diagnostics).
 *
 * @module
 */

import { EVIDENCE_FLOOR } from "./_evidence_floor.ts";
import { machinery } from "./_machinery.ts";
import { cleanLine } from "../../_text_clean.ts";
import type { Catalog, EntryKind } from "../model/types.ts";

/** A tool (or function, or skill) that waits for approval. */
export interface HeldTool {
  /** The catalog id it will have once approved. */
  id: string;
  /** Tool, host function or skill. */
  kind: EntryKind;
  /** Provenance: `mcp:<server>`, … */
  source: string;
  /** `pending`: new, never approved; `changed`: its definition changed since it was approved. */
  approval: "pending" | "changed";
  /** One line, hidden characters removed, at most 200 characters. */
  description: string;
}

/** Options of {@linkcode findHeldTools}. */
export interface FindHeldToolsOptions {
  /** Most entries (default 5, at most 50). */
  limit?: number;
  /** Kinds to search (default tools and host functions: `["tool", "function"]`). */
  kinds?: readonly EntryKind[];
}

/**
 * The held entries of `catalog` (waiting for approval) whose words fit `query`: the same
 * evidence floor `findTools` applies to callable entries (a word of the query in the name, or
 * in the description and more), most evidence first. None of them can be called until approved
 * (`catalog.approve(ids)`, or `skillmux approve <id…>` for the CLI's approvals).
 *
 * @example
 * ```ts
 * import { createCatalog, createMemoryStorage, createServerRegistry } from "@skillmux/core";
 * import { findHeldTools } from "@skillmux/core/catalog";
 * const registry = createServerRegistry({ storage: createMemoryStorage() });
 * await registry.add({ name: "docs", url: "http://127.0.0.1:3001/mcp" });
 * const catalog = await createCatalog({ registry }); // default approvals: remote tools wait
 * for (const tool of findHeldTools(catalog, "search the team docs")) {
 *   console.log(tool.id, tool.approval); // e.g. "docs__search pending"
 * }
 * ```
 */
export function findHeldTools(
  catalog: Catalog,
  query: string,
  options: FindHeldToolsOptions = {},
): HeldTool[] {
  if (typeof query !== "string" || query.trim() === "") return [];
  const kinds = options.kinds ?? ["tool", "function"];
  const limit = Math.min(Math.max(Math.floor(options.limit ?? 5), 0), 50);
  const held = new Map(
    catalog.held.filter(({ entry }) => kinds.includes(entry.kind)).map(({ entry }) => [
      entry.id,
      entry,
    ]),
  );
  if (held.size === 0 || limit === 0) return [];
  // The held entries weighed as one catalog of their own (the catalog's index holds usable
  // entries only), a server's name counting as a word of each of its tools.
  const index = machinery().buildKeywordIndex(
    [...held.values()].map((entry) =>
      entry.server ? { ...entry, keywords: [...entry.keywords, entry.server] } : entry
    ),
  );
  return index.search(query.slice(0, 2_000), { limit })
    .filter((hit) => hit.evidence >= EVIDENCE_FLOOR)
    .map((hit) => held.get(hit.id)!)
    .map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      source: entry.source,
      approval: entry.approval === "changed" ? "changed" : "pending",
      description: cleanLine(entry.description || entry.title || entry.name, 200),
    }));
}

/** Options of {@linkcode heldToolsNotice}. */
export interface HeldToolsNoticeOptions {
  /** The command that approves (default `skillmux approve`); the ids follow it. */
  command?: string;
  /** Most ids named (default 10; the rest are counted). */
  maxIds?: number;
}

/**
 * One sentence saying which entries wait for approval and how to approve them, or `""` when
 * `ids` is empty: `2 tools wait for approval and cannot be called yet: a, b. Approve them with:
 * skillmux approve a b`.
 *
 * @example
 * ```ts
 * import { heldToolsNotice } from "@skillmux/core/catalog";
 * console.log(heldToolsNotice(["docs__search"]));
 * // "1 tool waits for approval and cannot be called yet: docs__search. Approve it with: skillmux approve docs__search"
 * ```
 */
export function heldToolsNotice(
  ids: readonly string[],
  options: HeldToolsNoticeOptions = {},
): string {
  if (ids.length === 0) return "";
  const max = options.maxIds ?? 10;
  const named = ids.slice(0, max);
  const more = ids.length > max ? ` and ${ids.length - max} more` : "";
  const one = ids.length === 1;
  const command = options.command ?? "skillmux approve";
  return `${ids.length} tool${one ? " waits" : "s wait"} for approval and cannot be called yet: ` +
    `${named.join(", ")}${more}. Approve ${one ? "it" : "them"} with: ${command} ${
      more ? `${named.join(" ")} …` : named.join(" ")
    }`;
}
