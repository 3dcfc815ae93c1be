// Private: settling a catalog's raw entries: ids, approvals (held, stand-ins, auto-approved),
// order and the keyword index, against the stored approval records. Approving settles the same
// raw entries again; `_catalog.ts` holds the result as one whole state.

import type { Storage } from "../../storage/types.ts";
import { encoder, sha256Digest } from "../../_digest.ts";
import type { RawEntry } from "./_raw_entry.ts";
import { lineDiff } from "./_diff.ts";
import { IdTable } from "./_ids.ts";
import { sharedKeywordIndex } from "../search/_keyword_index.ts";
import { loadSegments, saveSegments } from "./_index_store.ts";
import { type Feedback, segmentsOf } from "./_segments.ts";
import { type ApprovalItem, approvalKey, type ApprovalStore } from "./_approvals.ts";
import type {
  ApprovalPolicy,
  ApprovalRecord,
  CatalogDiagnostic,
  CatalogEntry,
  HeldEntry,
  KeywordIndex,
} from "../model/types.ts";

/** A settled catalog state. */
export interface Settled {
  raws: RawEntry[];
  collected: CatalogDiagnostic[];
  entries: CatalogEntry[];
  held: HeldEntry[];
  usable: Map<string, { entry: CatalogEntry; raw: RawEntry }>;
  all: Map<string, { entry: CatalogEntry; raw: RawEntry }>;
  index: KeywordIndex;
  /** Each usable entry's place in `entries`, for renders that show a subset in catalog order. */
  position: Map<CatalogEntry, number>;
  version: string;
  diagnostics: CatalogDiagnostic[];
}

const KIND_ORDER = { skill: 0, tool: 1, function: 2 } as const;

function policyFor(raw: RawEntry, store: ApprovalStore): ApprovalPolicy | "trusted" {
  if (raw.kind === "function" || raw.source === "builtin") return "trusted";
  if (raw.preview) return "require"; // a registry's word for what a server has: held until approved
  return raw.remote ? store.policy.remote : store.policy.local;
}

/** A raw entry's public fields, and its definition. */
function entryFields(raw: RawEntry) {
  const {
    preferredId: _p,
    target: _t,
    fn: _f,
    tasks: _k,
    shadows: _s,
    alternate: _a,
    endpoint: _e,
    indexKey: _i,
    ...fields
  } = raw;
  return fields;
}

/**
 * For each held skill, the first lower-source version (`alternate` raws, in priority order) that
 * is approved answers under the held skill's id, so a held remote skill does not hide an
 * approved built-in; the held entry names it (`standIn`) and a diagnostic says so.
 */
function standInsFor(
  raws: readonly RawEntry[],
  held: HeldEntry[],
  records: Record<string, { digest: string; endpoint?: string } | undefined>,
  store: ApprovalStore,
  toApprove: ApprovalItem[],
  diagnostics: CatalogDiagnostic[],
): Array<{ entry: CatalogEntry; raw: RawEntry }> {
  const waiting = new Map(
    held.filter((h) => h.entry.kind === "skill").map((h) => [h.entry.name, h]),
  );
  const out: Array<{ entry: CatalogEntry; raw: RawEntry }> = [];
  for (const raw of raws) {
    const heldOne = raw.alternate ? waiting.get(raw.name) : undefined;
    if (!heldOne) continue;
    const key = approvalKey(raw);
    const policy = policyFor(raw, store);
    const record = records[key];
    const moved = record !== undefined && record.endpoint !== raw.endpoint;
    if (policy !== "trusted" && (record?.digest !== raw.digest || moved)) {
      if (policy !== "auto") continue; // this version waits as well
      toApprove.push({
        key,
        digest: raw.digest,
        definition: raw.definition,
        endpoint: raw.endpoint,
      });
    }
    waiting.delete(raw.name);
    const { definition: _d, ...fields } = entryFields(raw);
    const id = heldOne.entry.id;
    out.push({ entry: { id, ...fields, approval: "approved" }, raw });
    heldOne.standIn = raw.source;
    diagnostics.push({
      source: "approvals",
      problem: heldOne.entry.approval === "changed" ? "changed" : "pending",
      id,
      message:
        `skill "${id}" (${heldOne.entry.source}) waits for approval; the approved version from ${raw.source} answers until then`,
    });
  }
  return out;
}

/** Ids, approvals, order and the keyword index for `raws`, against the approval `records`. */
export async function settle(
  raws: RawEntry[],
  collected: CatalogDiagnostic[],
  store: ApprovalStore,
  indexStorage: Storage | undefined,
  records: Record<string, ApprovalRecord>,
  feedback: Feedback,
): Promise<Settled> {
  const ids = new IdTable();
  const idOf = new Map<RawEntry, string>();
  for (const kind of ["function", "skill", "tool"] as const) {
    for (const raw of raws.filter((r) => r.kind === kind && !r.alternate)) {
      idOf.set(raw, ids.claim(raw.preferredId, approvalKey(raw)));
    }
  }
  const diagnostics = [...collected];
  const toApprove: ApprovalItem[] = [];
  const all = new Map<string, { entry: CatalogEntry; raw: RawEntry }>();
  const held: HeldEntry[] = [];
  for (const raw of raws) {
    if (raw.alternate) continue;
    const { definition, ...fields } = entryFields(raw);
    const endpoint = raw.endpoint;
    const id = idOf.get(raw)!;
    const key = approvalKey(raw);
    const policy = policyFor(raw, store);
    const record = records[key];
    const entry: CatalogEntry = { id, ...fields, approval: "approved" };
    const label = `${raw.kind} "${id}" (${raw.source})`;
    // A server whose URL or command changed keeps nothing approved at the old endpoint.
    const moved = record !== undefined && record.endpoint !== endpoint;
    const what = moved && record.digest === raw.digest
      ? `now runs at ${endpoint ?? "no recorded endpoint"}, not where it was approved (${
        record.endpoint ?? "no endpoint recorded"
      })`
      : "changed since it was approved";
    if (policy !== "trusted" && (record?.digest !== raw.digest || moved)) {
      const diff = record ? lineDiff(record.definition, definition) : undefined;
      if (policy === "require" || (record && policy === "first-sight")) {
        entry.approval = record ? "changed" : "pending";
        held.push(diff === undefined ? { entry } : { entry, diff });
        diagnostics.push({
          source: "approvals",
          problem: entry.approval,
          id,
          message: record
            ? `${label} ${what}; held until approved again`
            : `${label} is new and waits for an approval`,
        });
      } else {
        toApprove.push({ key, digest: raw.digest, definition, endpoint });
        if (record) {
          diagnostics.push({
            source: "approvals",
            problem: "changed",
            id,
            message: `${label} ${what}; approved again (policy "auto")`,
          });
        }
      }
    }
    all.set(id, { entry, raw });
  }
  const standIns = standInsFor(raws, held, records, store, toApprove, diagnostics);
  if (toApprove.length > 0) await store.approve(toApprove);
  const sorted = [...all.values(), ...standIns].sort((a, b) =>
    KIND_ORDER[a.entry.kind] - KIND_ORDER[b.entry.kind] ||
    (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0)
  );
  const usable = new Map(
    sorted.filter((x) => x.entry.approval === "approved").map((x) => [x.entry.id, x]),
  );
  const entries = [...usable.values()].map((x) => x.entry);
  for (const id of feedback.keys()) {
    if (usable.has(id)) continue;
    diagnostics.push({
      source: "feedback",
      problem: "invalid",
      id,
      message: `feedback labels requests with "${id}", which is not a usable catalog entry; ` +
        "they are not used",
    });
  }
  const segments = segmentsOf(usable.values(), feedback);
  const unsaved = indexStorage && await loadSegments(segments, indexStorage);
  const index = sharedKeywordIndex(segments);
  if (unsaved && indexStorage) await saveSegments(unsaved, indexStorage);
  const lines = sorted.map(({ entry }) => `${entry.id} ${entry.digest} ${entry.approval}`);
  const version = await sha256Digest(encoder.encode(lines.join("\n")));
  held.sort((a, b) => (a.entry.id < b.entry.id ? -1 : 1));
  const position = new Map(entries.map((e, i) => [e, i]));
  return { raws, collected, entries, held, usable, all, index, position, version, diagnostics };
}
