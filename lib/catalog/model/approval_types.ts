/**
 * Types of the approvals, the rug-pull guard: policies, recorded approvals, and the entries held
 * until approved.
 *
 * @module
 */

import type { Storage } from "../../storage/types.ts";
import type { CatalogEntry } from "./entry_types.ts";

/** An entry kept out of rendering, ranking and prompts until approved. */
export interface HeldEntry {
  /** The entry (its `approval` says why). */
  entry: CatalogEntry;
  /** For `changed` entries: a line diff of the definition since it was approved. */
  diff?: string;
  /**
   * Held skills: the source whose approved version of the skill answers under this id until
   * this one is approved (the next source in priority order that has it approved).
   */
  standIn?: string;
}

/**
 * When entries are approved without asking:
 * - `auto`: on first sight and after every change (the change is still reported);
 * - `first-sight`: on first sight; a change holds the entry until approved again;
 * - `require`: never; every new or changed entry waits for an approval.
 */
export type ApprovalPolicy = "auto" | "first-sight" | "require";

/** One recorded approval. */
export interface ApprovalRecord {
  /** The digest approved. */
  digest: string;
  /** The definition approved (for diffs), cut at 64 KiB. */
  definition: string;
  /**
   * Where the entry ran when approved, for entries of a registered server: `url <url>` or
   * `stdio ["program","arg",…]`. When the server's URL or command changes, its entries are held
   * until approved again, like a changed definition.
   */
  endpoint?: string;
  /** ISO time of the approval. */
  approvedAt: string;
}

/**
 * Approvals, the rug-pull guard, as `createCatalog` keeps them. Defaults: local
 * skills (user, community) are approved automatically (`auto`), because the
 * user put them there; MCP tools and `mcp:*` skills wait for an approval
 * (`require`), because a server can change them at any time; built-in skills
 * and host functions are part of the application and always approved. Use
 * `remote: "first-sight"` to trust new remote entries and still hold changed ones.
 */
export interface ApprovalOptions {
  /** Where approvals are kept (one JSON document). */
  storage: Storage;
  /** Its key (default `approvals.json`). */
  key?: string;
  /** Policy for local sources: user and community skills (default `auto`). */
  local?: ApprovalPolicy;
  /** Policy for remote sources: MCP tools and `mcp:*` skills (default `require`). */
  remote?: ApprovalPolicy;
}
