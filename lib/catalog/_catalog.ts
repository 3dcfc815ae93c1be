// Private: the live catalog. Loaded lazily by createCatalog (it pulls in the keyword index and its stemmer).
// Build = collect raw entries (I/O) + settle them (ids, approvals, order, index). Approving
// settles the same raw entries again; refresh collects anew. Readers always see one whole state.

import { createMemoryStorage } from "../storage/memory.ts";
import type { Storage } from "../storage/types.ts";
import type { Resolution } from "../resolve/types.ts";
import { encoder, sha256Digest } from "../skill/_text.ts";
import { alternates, collect, type CollectSources, type RawEntry } from "./_collect.ts";
import { lineDiff } from "./_diff.ts";
import { IdTable } from "./_ids.ts";
import { buildKeywordIndex, type IndexSegment, sharedKeywordIndex } from "./_keyword_index.ts";
import { bindMachinery } from "./_machinery.ts";
import { analyzeQuery } from "./_query.ts";
import { nameTerms, termsOf } from "./_terms.ts";
import { loadSegments, saveSegments } from "./_index_store.ts";
import { entryLine, renderLines, renderWithin } from "./_render.ts";
import {
  type ApprovalItem,
  approvalKey,
  type ApprovalStore,
  createApprovalStore,
} from "./_approvals.ts";
import { countTokens } from "./tokens.ts";
import type {
  ApprovalPolicy,
  ApprovalRecord,
  Catalog,
  CatalogDiagnostic,
  CatalogEntry,
  CreateCatalogOptions,
  FeedbackRequest,
  HeldEntry,
  HostFunction,
  KeywordDocument,
  KeywordIndex,
  RankedEntry,
  RankOptions,
  RenderedCatalog,
  RenderOptions,
  TokenCounter,
  ToolTarget,
} from "./types.ts";
import { type DisplayBundle, JUPYTER_DISPLAY } from "../_display.ts";
import { catalogDisplay } from "./_display.ts";

bindMachinery({ analyzeQuery, nameTerms, termsOf, buildKeywordIndex });

interface Settled {
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

/** Labelled requests by the id of the entry they name (see `CreateCatalogOptions.feedback`). */
type Feedback = ReadonlyMap<string, readonly string[]>;

/** The requests of `labelled` that name entries, by id, in order (`"none"` labels name none). */
function feedbackOf(labelled: readonly FeedbackRequest[] | undefined): Feedback {
  const out = new Map<string, string[]>();
  for (const { request, expected } of labelled ?? []) {
    if (expected === "none" || typeof request !== "string") continue;
    for (const id of new Set(expected)) {
      const lines = out.get(id);
      if (lines) lines.push(request);
      else out.set(id, [request]);
    }
  }
  return out;
}

/**
 * An entry's keyword document; the user's own labelled requests that name it are more example
 * tasks (weighed like the entry's own).
 */
function documentOf(
  { entry: e, raw }: { entry: CatalogEntry; raw: RawEntry },
  feedback?: Feedback,
): KeywordDocument {
  const told = feedback?.get(e.id);
  return {
    id: e.id,
    name: e.name,
    title: e.title,
    description: e.description,
    tags: e.tags,
    keywords: e.server ? [...e.keywords, e.server] : e.keywords,
    tasks: told ? [...(raw.tasks ?? []), ...told] : raw.tasks,
  };
}

/** Short stand-ins for index keys (a number per distinct key; numbers are never reused). */
const interned = new Map<string, number>();
let nextKey = 0;
function intern(key: string): number {
  let n = interned.get(key);
  if (n === undefined) {
    if (interned.size >= 100_000) interned.clear();
    interned.set(key, n = nextKey++);
  }
  return n;
}

/**
 * The usable entries as index segments, one per source (a server's tools, the built-in skills,
 * ...), each keyed by its entries' ids and the keys of their documents: a source whose listing
 * did not change keeps its segment, one that changed is indexed again alone.
 */
function segmentsOf(
  usable: Iterable<{ entry: CatalogEntry; raw: RawEntry }>,
  feedback: Feedback,
): IndexSegment[] {
  const bySource = new Map<string, Array<{ entry: CatalogEntry; raw: RawEntry }>>();
  for (const x of usable) {
    const group = bySource.get(x.entry.source);
    if (group) group.push(x);
    else bySource.set(x.entry.source, [x]);
  }
  const keyOf = (x: { entry: CatalogEntry; raw: RawEntry }) => {
    const told = feedback.get(x.entry.id);
    const key = x.raw.indexKey ?? JSON.stringify(documentOf(x));
    return told ? `${key}\u0000feedback\u0000${JSON.stringify(told)}` : key;
  };
  return [...bySource].map(([source, group]) => ({
    key: `${source}\n${group.map((x) => `${x.entry.id}\u0000${intern(keyOf(x))}`).join("\n")}`,
    stableKey: () => `${source}\n${group.map((x) => `${x.entry.id}\u0000${keyOf(x)}`).join("\n")}`,
    documents: () => group.map((x) => documentOf(x, feedback)),
  }));
}

/** Ids, approvals, order and the keyword index for `raws`, against the approval `records`. */
async function settle(
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

class LiveCatalog implements Catalog {
  #sources: CollectSources;
  #store: ApprovalStore;
  #indexStorage: Storage | undefined;
  #feedback: Feedback;
  #state!: Settled;
  #building: Promise<void> | undefined;
  #dirty = false;
  #unsubscribe: () => void = () => {};
  #lineTokens = new WeakMap<TokenCounter, Map<string, number>>();
  #whole = new WeakMap<
    TokenCounter,
    { version: string; text: Promise<{ text: string; tokens: number }> }
  >();

  constructor(options: CreateCatalogOptions) {
    this.#sources = {
      resolver: options.resolver,
      registry: options.registry,
      clients: options.clients,
      functions: options.functions,
      trustCommunity: options.trustCommunity,
      previews: options.previews,
      maxAgeMs: options.discoveryMaxAgeMs ?? 3_600_000,
      timeoutMs: options.timeoutMs ?? 10_000,
    };
    this.#store = createApprovalStore(options.approvals ?? { storage: createMemoryStorage() });
    this.#indexStorage = options.indexStorage;
    this.#feedback = feedbackOf(options.feedback);
    const registry = options.registry;
    if (registry && options.follow !== false) {
      this.#unsubscribe = registry.onChange((change) => {
        if (this.#building && change.kind === "discovery") return; // our own re-discovery
        if (this.#building) this.#dirty = true;
        else this.refresh().catch(() => {});
      });
    }
  }

  get entries(): readonly CatalogEntry[] {
    return this.#state.entries;
  }
  get held(): readonly HeldEntry[] {
    return this.#state.held;
  }
  get version(): string {
    return this.#state.version;
  }
  get diagnostics(): readonly CatalogDiagnostic[] {
    return this.#state.diagnostics;
  }

  get(id: string): CatalogEntry | undefined {
    return this.#state.usable.get(id)?.entry;
  }

  /** The notebook display (Jupyter): the entries as a table, then what is held or failed. */
  [JUPYTER_DISPLAY](): DisplayBundle {
    return catalogDisplay(this);
  }

  rank(query: string, options: RankOptions = {}): RankedEntry[] {
    const limit = options.limit ?? 10;
    const kinds = options.kinds;
    const hits = this.#state.index.search(query, { limit: kinds ? Infinity : limit });
    const out: RankedEntry[] = [];
    for (const hit of hits) {
      const entry = this.#state.usable.get(hit.id)?.entry;
      if (entry && (!kinds || kinds.includes(entry.kind))) {
        out.push({ entry, score: hit.score, evidence: hit.evidence });
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  async render(options: RenderOptions = {}): Promise<RenderedCatalog> {
    const count = options.countTokens ?? countTokens;
    let cache = this.#lineTokens.get(count);
    if (!cache) this.#lineTokens.set(count, cache = new Map());
    const lines = cache;
    const preference = options.request
      ? this.rank(options.request, { limit: Infinity }).map((r) => r.entry)
      : [];
    const state = this.#state;
    let whole = this.#whole.get(count);
    if (whole?.version !== state.version) {
      const text = renderLines(state.entries, 0);
      whole = {
        version: state.version,
        text: Promise.resolve(count(text)).then((tokens) => ({ text, tokens })),
      };
      this.#whole.set(count, whole);
      whole.text.catch(() => this.#whole.delete(count));
    }
    const cached = whole.text;
    return await renderWithin({
      whole: () => cached,
      entries: state.entries,
      preference,
      budget: options.budget,
      count,
      position: state.position,
      lineTokens(entry) {
        const key = `${entry.id}\n${entry.digest}`;
        return lines.get(key) ??
          Promise.resolve(count(`${entryLine(entry)}\n`)).then((n) => {
            lines.set(key, n);
            return n;
          });
      },
    });
  }

  refresh(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#building) return this.#building;
    const run = (async () => {
      do {
        this.#dirty = false;
        const diagnostics: CatalogDiagnostic[] = [];
        const { raws, skillFrom } = await collect(
          { ...this.#sources, signal: options.signal },
          diagnostics,
        );
        const records = await this.#store.all();
        let state = await settle(
          raws,
          diagnostics,
          this.#store,
          this.#indexStorage,
          records,
          this.#feedback,
        );
        const resolver = this.#sources.resolver;
        const shadowed = state.held.map((h) => state.all.get(h.entry.id)?.raw)
          .filter((r): r is RawEntry => r?.kind === "skill" && (r.shadows?.length ?? 0) > 0);
        if (resolver && shadowed.length > 0) {
          const told = diagnostics.length;
          const extra = await alternates(
            resolver,
            shadowed,
            skillFrom,
            diagnostics,
            options.signal,
          );
          // Settled again for a stand-in, or for a lower version that could not be read (its
          // diagnostic is part of the catalog's, as what was collected). Against the approvals
          // read before the first settle: what it approved under "auto" is still reported.
          if (extra.length > 0 || diagnostics.length > told) {
            state = await settle(
              [...raws, ...extra],
              diagnostics,
              this.#store,
              this.#indexStorage,
              records,
              this.#feedback,
            );
          }
        }
        this.#state = state;
      } while (this.#dirty);
    })();
    this.#building = run;
    run.then(() => (this.#building = undefined), () => (this.#building = undefined));
    return run;
  }

  async approve(ids: readonly string[]): Promise<void> {
    const items = ids.map((id) => {
      const found = this.#state.all.get(id);
      if (!found) throw new RangeError(`Cannot approve "${id}": no such catalog entry`);
      const { raw } = found;
      return {
        key: approvalKey(raw),
        digest: raw.digest,
        definition: raw.definition,
        endpoint: raw.endpoint,
      };
    });
    await this.#store.approve(items);
    this.#state = await settle(
      this.#state.raws,
      this.#state.collected,
      this.#store,
      this.#indexStorage,
      await this.#store.all(),
      this.#feedback,
    );
  }

  async loadSkill(id: string, options: { signal?: AbortSignal } = {}): Promise<Resolution> {
    const entry = this.get(id);
    if (entry?.kind !== "skill") throw new RangeError(`No usable skill "${id}" in the catalog`);
    const resolver = this.#sources.resolver;
    if (!resolver) throw new RangeError(`The catalog has no resolver to load "${id}"`);
    // A stand-in for a held skill is read from its own source, past the held winner.
    const standIn = this.#state.usable.get(id)?.raw.alternate === true;
    const name = standIn ? `${entry.source}:${entry.name}` : entry.name;
    const hit = await resolver.resolve(name, { signal: options.signal });
    if (hit.source !== entry.source || hit.skill.digest !== entry.digest) {
      throw new Error(
        `Skill "${entry.name}" changed since the catalog was built (now from ${hit.source}); refresh the catalog`,
      );
    }
    return hit;
  }

  hostFunction(id: string): HostFunction | undefined {
    return this.#state.usable.get(id)?.raw.fn;
  }

  toolTarget(id: string): ToolTarget | undefined {
    return this.#state.usable.get(id)?.raw.target;
  }

  dispose(): void {
    this.#unsubscribe();
  }
}

/** Build a live catalog (see `createCatalog`). */
export async function buildCatalog(options: CreateCatalogOptions): Promise<Catalog> {
  const catalog = new LiveCatalog(options);
  try {
    await catalog.refresh({ signal: options.signal });
  } catch (error) {
    catalog.dispose();
    throw error;
  }
  return catalog;
}
