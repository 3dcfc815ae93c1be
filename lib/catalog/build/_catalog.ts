// Private: the live catalog. Loaded lazily by createCatalog (it pulls in the keyword index and its stemmer).
// Build = collect raw entries (I/O) + settle them (ids, approvals, order, index). Approving
// settles the same raw entries again; refresh collects anew. Readers always see one whole state.

import { createMemoryStorage } from "../../storage/memory.ts";
import type { Storage } from "../../storage/types.ts";
import type { Resolution } from "../../resolve/types.ts";
import { alternates, collect, type CollectSources } from "./_collect.ts";
import type { RawEntry } from "./_raw_entry.ts";
import { buildKeywordIndex } from "../search/_keyword_index.ts";
import { bindMachinery } from "../search/_machinery.ts";
import { analyzeQuery } from "../search/_query.ts";
import { nameTerms, termsOf } from "../search/_terms.ts";
import { type Feedback, feedbackOf } from "./_segments.ts";
import { settle, type Settled } from "./_settle.ts";
import { entryLine, renderLines, renderWithin } from "./_render.ts";
import { approvalKey, type ApprovalStore, createApprovalStore } from "./_approvals.ts";
import { countTokens } from "./tokens.ts";
import type {
  Catalog,
  CatalogDiagnostic,
  CatalogEntry,
  CreateCatalogOptions,
  HeldEntry,
  HostFunction,
  RankedEntry,
  RankOptions,
  RenderedCatalog,
  RenderOptions,
  TokenCounter,
  ToolTarget,
} from "../model/types.ts";
import { type DisplayBundle, JUPYTER_DISPLAY } from "../../_display.ts";
import { catalogDisplay } from "./_display.ts";

bindMachinery({ analyzeQuery, nameTerms, termsOf, buildKeywordIndex });

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
