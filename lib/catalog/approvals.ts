/**
 * Approvals: the rug-pull guard. The digest of each tool definition and remote
 * skill is recorded when approved; a later change holds the entry out of
 * prompts, with a diff, until it is approved again.
 *
 * @module
 */

import type { Storage } from "../storage/types.ts";
import type { CatalogEntry } from "./types.ts";

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
  /** ISO time of the approval. */
  approvedAt: string;
}

/** Options of {@linkcode createApprovalStore}. */
export interface ApprovalStoreOptions {
  /** Where approvals are kept (one JSON document). */
  storage: Storage;
  /** Its key (default `approvals.json`). */
  key?: string;
  /** Policy for local sources: user and community skills (default `auto`). */
  local?: ApprovalPolicy;
  /** Policy for remote sources: MCP tools and `mcp:*` skills (default `require`). */
  remote?: ApprovalPolicy;
}

/** Approvals kept in a storage. */
export interface ApprovalStore {
  /** The policies in force. */
  readonly policy: { readonly local: ApprovalPolicy; readonly remote: ApprovalPolicy };
  /** Every record, by {@linkcode approvalKey}. */
  all(): Promise<Record<string, ApprovalRecord>>;
  /** Record these approvals (replacing earlier ones of the same keys). */
  approve(items: ReadonlyArray<{ key: string; digest: string; definition: string }>): Promise<void>;
  /** Forget these approvals. */
  revoke(keys: readonly string[]): Promise<void>;
}

/** The largest definition kept for diffs, in characters. */
const MAX_DEFINITION = 65_536;

/**
 * The identity approvals are keyed on: kind, source label and name (never the
 * catalog id, which may change when entries collide).
 *
 * @example
 * ```ts
 * import { approvalKey } from "@skillmux/core";
 * console.log(approvalKey({ kind: "tool", source: "mcp:everything", name: "echo" })); // "tool:mcp:everything:echo"
 * ```
 */
export function approvalKey(entry: Pick<CatalogEntry, "kind" | "source" | "name">): string {
  return `${entry.kind}:${entry.source}:${entry.name}`;
}

/**
 * A store of approvals in `storage` under `key`. Writes are serialised and
 * atomic (the storage's `set`); a corrupt document is reported, never
 * overwritten silently.
 *
 * Defaults: local skills are approved automatically (`auto`), remote tools and
 * skills need an approval (`require`); built-in skills and host functions are
 * part of the application and always approved.
 *
 * @example Approve everything a catalog holds back
 * ```ts
 * import { createApprovalStore, createCatalog, createMemoryStorage } from "@skillmux/core";
 * const approvals = createApprovalStore({ storage: createMemoryStorage(), remote: "first-sight" });
 * const catalog = await createCatalog({ approvals });
 * await catalog.approve(catalog.held.map((h) => h.entry.id));
 * console.log(catalog.held.length); // 0
 * ```
 */
export function createApprovalStore(options: ApprovalStoreOptions): ApprovalStore {
  const { storage } = options;
  const key = options.key ?? "approvals.json";
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  async function read(): Promise<Record<string, ApprovalRecord>> {
    const text = await storage.get(key);
    if (text === undefined) return {};
    try {
      const doc = JSON.parse(text) as { records?: unknown };
      if (doc && typeof doc.records === "object" && doc.records !== null) {
        return Object.assign(Object.create(null), doc.records) as Record<string, ApprovalRecord>;
      }
    } catch { /* reported below */ }
    throw new TypeError(
      `Cannot read approvals "${key}": expected JSON { "records": { ... } }; fix or remove it`,
    );
  }
  const write = (records: Record<string, ApprovalRecord>) =>
    storage.set(key, JSON.stringify({ version: 1, records }, null, 1) + "\n");
  return {
    policy: { local: options.local ?? "auto", remote: options.remote ?? "require" },
    all: () => serial(read),
    approve: (items) =>
      serial(async () => {
        const records = await read();
        const approvedAt = new Date().toISOString();
        for (const item of items) {
          records[item.key] = {
            digest: item.digest,
            definition: item.definition.slice(0, MAX_DEFINITION),
            approvedAt,
          };
        }
        await write(records);
      }),
    revoke: (keys) =>
      serial(async () => {
        const records = await read();
        for (const k of keys) delete records[k];
        await write(records);
      }),
  };
}
