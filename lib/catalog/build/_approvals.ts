// Private: approvals, the rug-pull guard. The digest of each tool definition and remote skill is
// recorded when approved; a later change holds the entry out of prompts, with a diff, until it
// is approved again. Loaded with the catalog (lazily), configured by ApprovalOptions.

import type { ApprovalOptions, ApprovalPolicy, ApprovalRecord } from "../model/types.ts";

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

const POLICIES = ["auto", "first-sight", "require"];

/**
 * Refuse approval options that cannot work, with a sentence saying what to pass instead (rather
 * than failing later on a missing storage).
 */
export function checkApprovalOptions(options: ApprovalOptions): void {
  const where = "createCatalog: approvals";
  if (options === null || typeof options !== "object") {
    throw new TypeError(`${where} must be an object, e.g. { storage: createMemoryStorage() }`);
  }
  const storage = options.storage as Partial<ApprovalOptions["storage"]> | undefined;
  if (typeof storage?.get !== "function" || typeof storage?.set !== "function") {
    const given = Object.keys(options).filter((k) => k !== "storage");
    throw new TypeError(
      `${where}${given.length ? ` { ${given.join(", ")} }` : ""} needs a storage to record ` +
        "approvals in: add storage: createMemoryStorage() to keep them for this process, or " +
        'createFsStorage({ root: "…" }) (from @skillmux/core/fs) to keep them on disk; or leave ' +
        "approvals out for the defaults in memory",
    );
  }
  for (const field of ["local", "remote"] as const) {
    const policy = options[field];
    if (policy !== undefined && !POLICIES.includes(policy)) {
      throw new TypeError(
        `${where}.${field} must be "auto", "first-sight" or "require", not ${
          JSON.stringify(policy)
        }`,
      );
    }
  }
  if (options.key !== undefined && (typeof options.key !== "string" || options.key === "")) {
    throw new TypeError(`${where}.key must be a non-empty string (default "approvals.json")`);
  }
}

/** A store of approvals in `options.storage`; writes are serialised and atomic. */
export function createApprovalStore(options: ApprovalOptions): ApprovalStore {
  checkApprovalOptions(options);
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
