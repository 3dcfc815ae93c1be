// Private: approvals, the rug-pull guard. The digest of each tool definition and remote skill is
// recorded when approved; a later change holds the entry out of prompts, with a diff, until it
// is approved again. Loaded with the catalog (lazily), configured by ApprovalOptions.

import type { ApprovalOptions, ApprovalPolicy, ApprovalRecord } from "./types.ts";

/** Approvals kept in a storage. */
export interface ApprovalStore {
  /** The policies in force. */
  readonly policy: { readonly local: ApprovalPolicy; readonly remote: ApprovalPolicy };
  /** Every record, by {@linkcode approvalKey}. */
  all(): Promise<Record<string, ApprovalRecord>>;
  /** Record these approvals (replacing earlier ones of the same keys). */
  approve(items: ReadonlyArray<ApprovalItem>): Promise<void>;
  /** Forget these approvals. */
  revoke(keys: readonly string[]): Promise<void>;
}

/** What an approval records: the entry's key and digest, its definition and where it runs. */
export interface ApprovalItem {
  key: string;
  digest: string;
  definition: string;
  /** A registered server's URL or stdio command: the approval holds there only. */
  endpoint?: string;
}

/** The largest definition kept for diffs, in characters. */
const MAX_DEFINITION = 65_536;

/** The identity approvals are keyed on: kind, source label and name (never the catalog id). */
export function approvalKey(entry: { kind: string; source: string; name: string }): string {
  return `${entry.kind}:${entry.source}:${entry.name}`;
}

/** A store of approvals in `options.storage`; writes are serialised and atomic. */
export function createApprovalStore(options: ApprovalOptions): ApprovalStore {
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
            ...(item.endpoint !== undefined ? { endpoint: item.endpoint } : {}),
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
