/**
 * The priority resolver: ordered sources, first valid hit wins.
 *
 * @module
 */

import { scopedSignal } from "../_abort.ts";
import { normalizeSkillName } from "../skill/name.ts";
import { SkillNotFoundError } from "./errors.ts";
import { mcpProvenance } from "./provenance.ts";
import type { EntryParser } from "./_query.ts";
import { displayableListing, displayableResolution } from "./_displayable.ts";
import type {
  Resolution,
  ResolveDiagnostic,
  ResolveOptions,
  Resolver,
  ResolverParseOptions,
  SkillListing,
  SkillSource,
  SourceTier,
} from "./types.ts";

/**
 * Default per-source timeout: local sources answer in microseconds, remote ones get 5 s.
 *
 * @example Give a slow source more time than the default
 * ```ts
 * import { createResolver } from "@skillmux/core";
 * import { DEFAULT_SOURCE_TIMEOUT_MS } from "@skillmux/core/resolve";
 * const resolver = createResolver({ sources: [], timeoutMs: DEFAULT_SOURCE_TIMEOUT_MS * 2 });
 * console.log(resolver.sources.length); // 0
 * ```
 */
export const DEFAULT_SOURCE_TIMEOUT_MS = 5_000;

/** The resolver's lazily loaded parts. */
interface Machinery {
  askTier: typeof import("./_query.ts").askTier;
  peekAll: typeof import("./_query.ts").peekAll;
  listSources: typeof import("./_list.ts").listSources;
  fileReader: typeof import("./_read_file.ts").fileReader;
  parse: EntryParser;
}

/** Options of {@linkcode createResolver}. */
export interface CreateResolverOptions {
  /**
   * Sources, highest priority first: typically user, community, MCP servers,
   * built-in. An inner array is a group asked in parallel whose answer follows
   * the group's order (registration order for MCP servers).
   */
  sources: readonly SourceTier[];
  /** Per-source timeout in milliseconds for sources that set none (default 5000). */
  timeoutMs?: number;
  /** Default overall deadline in milliseconds for each call (default: none). */
  deadlineMs?: number;
  /** Parser options applied to every source's content (strict mode, size cap). */
  parse?: ResolverParseOptions;
}

/**
 * Build a priority resolver. `resolve(name)` asks the sources in order and
 * returns the first valid skill; **a lower source is never asked once a higher
 * one has answered**. A source that fails, times out or holds invalid content is
 * skipped with a diagnostic, and resolution goes on with the next one. A group
 * (an inner array) is asked in parallel; its answer follows the group's order.
 *
 * Names are normalised with `normalizeSkillName`: lowercased and checked, so
 * `../x`, `a/b` and look-alikes that are not ASCII (`\u212Aelvin`) are
 * rejected with `InvalidSkillNameError` before any source is asked.
 *
 * Each resolver keeps what it parsed: a source answering with the same text as
 * before is not parsed again, so the skills it returns are frozen (shared
 * between calls; copy one with `structuredClone` to change it).
 *
 * @example Users override built-ins
 * ```ts
 * import { createBuiltinSource, createMemoryStorage, createResolver, createStorageSource } from "@skillmux/core";
 * const mine = createMemoryStorage();
 * await mine.set("samtools.md", "---\nname: samtools\ndescription: My notes. Use when sorting BAMs.\n---\n");
 * const resolver = createResolver({
 *   sources: [createStorageSource({ label: "user", storage: mine }), createBuiltinSource()],
 * });
 * const hit = await resolver.resolve("samtools");
 * console.log(hit.source); // "user"
 * const all = await resolver.list();
 * console.log(all.skills.find((s) => s.name === "samtools")?.shadows); // ["builtin"]
 * ```
 */
export function createResolver(options: CreateResolverOptions): Resolver {
  const tiers = options.sources.map((
    tier,
  ) => (Array.isArray(tier) ? [...tier] : [tier as SkillSource]));
  const sources = tiers.flat();
  const timeoutMs = options.timeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS;
  const labels = sources.map((s) => s.label);
  // The query machinery (asking tiers, listing, parsing each entry once) loads with the first
  // resolve or list: a page that only builds a resolver does not download it.
  let machinery: Promise<Machinery> | undefined;
  const load = () =>
    machinery ??= Promise.all([
      import("./_query.ts"),
      import("./_list.ts"),
      import("./_parse_cache.ts"),
      import("./_read_file.ts"),
    ]).then(([query, list, cache, read]) => ({
      askTier: query.askTier,
      peekAll: query.peekAll,
      listSources: list.listSources,
      fileReader: read.fileReader,
      parse: cache.createEntryParser(options.parse ?? {}),
    }), (error) => {
      machinery = undefined; // a chunk that failed to download may load on the next call
      throw error;
    });

  /** `origin:name` asks only the source labelled `origin` (or `mcp:origin`); else every tier. */
  function route(text: string): { name: string; chosen: SkillSource[][] } {
    // Only the origin is lowercased here: the name goes to normalizeSkillName as written, so a
    // look-alike such as the Kelvin sign is refused instead of lowercasing to ASCII.
    const colon = typeof text === "string" ? text.lastIndexOf(":") : -1;
    if (colon <= 0) return { name: text, chosen: tiers };
    const origin = text.slice(0, colon).toLowerCase();
    const picked = sources.filter((s) =>
      s.label.toLowerCase() === origin || s.label.toLowerCase() === mcpProvenance(origin)
    );
    if (picked.length === 0) {
      throw new SkillNotFoundError(text, labels, [{
        source: origin,
        name: text,
        problem: "error",
        message: `no source is labelled "${origin}" (sources: ${labels.join(", ")})`,
      }]);
    }
    return { name: text.slice(colon + 1), chosen: picked.map((s) => [s]) };
  }

  async function resolve(requested: string, call: ResolveOptions = {}): Promise<Resolution> {
    const routed = route(requested);
    const name = normalizeSkillName(routed.name);
    const chosen = routed.chosen;
    const deadline = call.deadlineMs ?? options.deadlineMs;
    const scope = scopedSignal(
      [call.signal],
      deadline,
      `resolve deadline of ${deadline} ms passed`,
    );
    const diagnostics: ResolveDiagnostic[] = [];
    try {
      const { askTier, peekAll, parse, fileReader } = await load();
      for (const tier of chosen) {
        if (scope.signal.aborted) break;
        const answer = await askTier(tier, name, scope.signal, timeoutMs, parse);
        diagnostics.push(...answer.diagnostics);
        if (answer.hit) {
          const { hit } = answer;
          const below = sources.slice(sources.findIndex((s) => s.label === hit.source) + 1);
          const says = chosen === tiers
            ? await peekAll(below.filter((s) => s.peek), name, scope.signal, timeoutMs)
            : [];
          const files = hit.files ?? [];
          const resolution = {
            skill: hit.skill,
            source: hit.source,
            location: hit.location,
            shadows: below.filter((s) => s.peek).filter((_, i) => says[i] === true).map((s) =>
              s.label
            ),
            ...(hit.requestedAllowedTools
              ? { requestedAllowedTools: hit.requestedAllowedTools }
              : {}),
            diagnostics: [...diagnostics, ...hit.diagnostics],
            ...(hit.folder === undefined ? {} : { folder: hit.folder }),
            files,
          } as Resolution;
          // Not enumerable: a resolution stays plain data for JSON, comparisons and display.
          Object.defineProperty(resolution, "readFile", {
            value: fileReader(hit.skill.name, hit.text, files, hit.readFile),
            enumerable: false,
          });
          return displayableResolution(resolution);
        }
      }
      if (call.signal?.aborted) throw call.signal.reason;
      throw new SkillNotFoundError(name, labels, diagnostics);
    } finally {
      scope.dispose();
    }
  }

  async function list(call: ResolveOptions = {}): Promise<SkillListing> {
    const deadline = call.deadlineMs ?? options.deadlineMs;
    const scope = scopedSignal([call.signal], deadline, `list deadline of ${deadline} ms passed`);
    try {
      const { listSources, parse } = await load();
      const listing = await listSources(sources, scope.signal, timeoutMs, parse);
      if (call.signal?.aborted) throw call.signal.reason;
      return displayableListing(listing);
    } finally {
      scope.dispose();
    }
  }

  return { sources, resolve, list };
}
