/**
 * The built-in skills that ship inside the library.
 *
 * @module
 */

import type { SkillSource, SkillSummary, SourceEntry } from "./types.ts";
import { loaders } from "../_runtime_loaders.ts";
import { type BuiltinSummaryTable, isSummaryTable, summarizeBuiltins } from "./_builtin_summary.ts";

/** The built-in skill documents, keyed by skill name (see `@skillmux/core/builtin-skills`). */
export type BuiltinSkillTable = Readonly<Record<string, string>>;

/** Options of `createBuiltinSource`. */
export interface BuiltinSourceOptions {
  /**
   * The skill texts to serve, e.g. `BUILTIN_SKILLS` from `@skillmux/core/builtin-skills` (or a
   * function loading it lazily). Default: the package's `_builtin_skills.json`, loaded by URL
   * beside this module on the first lookup.
   */
  skills?: BuiltinSkillTable | (() => Promise<BuiltinSkillTable>);
}

let shared: Promise<BuiltinSkillTable> | undefined;

/**
 * Load the package's table on first use. It is JSON found by a URL relative to this module, so
 * a bundler without code splitting does not inline its 480 kB: Deno and Node import it from the
 * package's files, Vite and webpack emit it as an asset beside the bundle (`new URL(…,
 * import.meta.url)`), and a browser fetches it.
 */
function loadShared(): Promise<BuiltinSkillTable> {
  shared ??= (loaders.builtinSkills?.() ??
    loadTable(new URL("./_builtin_skills.json", import.meta.url))).catch((error) => {
      shared = undefined;
      throw error;
    });
  return shared;
}

/** A JSON file by URL: a JSON module where the runtime has them, else fetched. */
async function loadJson(url: URL): Promise<unknown> {
  try {
    return (await import(/* @vite-ignore */ url.href, { with: { type: "json" } })).default;
  } catch (error) {
    // A browser where the JSON is an asset of another MIME type, or without JSON modules.
    const answer = await fetch(url).catch(() => undefined);
    if (!answer?.ok) {
      throw new Error(
        `Cannot load the built-in skills from ${url.href} (${
          answer ? `HTTP ${answer.status}` : String(error)
        }): in a bundle that does not ship it, pass createBuiltinSource({ skills: BUILTIN_SKILLS }) ` +
          `with BUILTIN_SKILLS from "@skillmux/core/builtin-skills"`,
        { cause: error },
      );
    }
    return await answer.json();
  }
}

async function loadTable(url: URL): Promise<BuiltinSkillTable> {
  const table = await loadJson(url);
  if (
    typeof table !== "object" || table === null ||
    !Object.values(table).every((text) => typeof text === "string")
  ) throw new Error(`Cannot load the built-in skills from ${url.href}: not a name → text object`);
  return table as BuiltinSkillTable;
}

/**
 * What the listing needs of every skill of a table, parsed once per table (every catalog and
 * resolver of the process shares a table it was given, so it is parsed once per process); a
 * skill's body is parsed again only when it is resolved.
 */
/** Summaries handed out on every listing, frozen so that _list.ts checks them once. */
function freezeSummaries(summaries: SkillSummary[]): SkillSummary[] {
  return Object.freeze(summaries.map((s) => Object.freeze(s))) as SkillSummary[];
}

const summariesOf = new WeakMap<BuiltinSkillTable, Promise<SkillSummary[]>>();

function loadSummaries(skills: BuiltinSkillTable): Promise<SkillSummary[]> {
  let done = summariesOf.get(skills);
  if (done) return done;
  done = summarizeBuiltins(skills).then(freezeSummaries);
  summariesOf.set(skills, done);
  done.catch(() => summariesOf.delete(skills));
  return done;
}

let sharedSummaries: Promise<BuiltinSummaryTable> | undefined;

/**
 * The package's names and summaries without its texts: _builtin_summaries.json (generated with
 * the texts by scripts/gen_builtin.ts, from the same parse), loaded like the texts, by a URL
 * beside this module, so that a listing (a page's first view) does not load every text. Where
 * that file is missing (a bundle that ships only the texts beside itself), they are computed from
 * the texts as before: the same summaries either way.
 */
function loadSharedSummaries(): Promise<BuiltinSummaryTable> {
  sharedSummaries ??= (async () => {
    try {
      const table = await (loaders.builtinSummaries?.() ??
        loadJson(new URL("./_builtin_summaries.json", import.meta.url)));
      if (isSummaryTable(table)) {
        return { names: table.names, summaries: freezeSummaries(table.summaries) };
      }
    } catch {
      // fall back to the texts below
    }
    const skills = await loadShared();
    return { names: Object.keys(skills).sort(), summaries: await loadSummaries(skills) };
  })().catch((error) => {
    sharedSummaries = undefined;
    throw error;
  });
  return sharedSummaries;
}

/**
 * The names of the built-in skills, sorted.
 *
 * @example
 * ```ts
 * import { builtinSkillNames } from "@skillmux/core/resolve";
 * console.log((await builtinSkillNames()).includes("samtools")); // true
 * ```
 */
export async function builtinSkillNames(): Promise<string[]> {
  return [...(await loadSharedSummaries()).names];
}

/**
 * A source over the built-in skills (label `builtin`). They ship inside the package, so Deno,
 * Node, `jsr:` and browser users get them with no file access: the table (a JSON file beside
 * this module) loads on the first lookup. A bundle that does not ship that file (one file, no
 * assets) passes the table itself: `createBuiltinSource({ skills: BUILTIN_SKILLS })`.
 *
 * @example
 * ```ts
 * import { createBuiltinSource, createResolver } from "@skillmux/core";
 * const hit = await createResolver({ sources: [createBuiltinSource()] }).resolve("samtools");
 * console.log(hit.source, hit.skill.examples.length); // "builtin" 10
 * ```
 */
export function createBuiltinSource(options: BuiltinSourceOptions = {}): SkillSource {
  const given = options.skills;
  let own: Promise<BuiltinSkillTable> | undefined;
  const table = () =>
    given === undefined
      ? loadShared()
      : typeof given === "function"
      ? (own ??= given().catch((error) => {
        own = undefined;
        throw error;
      }))
      : Promise.resolve(given);
  // The package's table is listed from its summaries; a table given is listed from its texts.
  const names = async () =>
    given === undefined ? (await loadSharedSummaries()).names : Object.keys(await table()).sort();
  return {
    label: "builtin",
    async get(name: string): Promise<SourceEntry | undefined> {
      const skills = await table();
      const text = Object.hasOwn(skills, name) ? skills[name] : undefined;
      return text === undefined
        ? undefined
        : { text, format: "markdown", location: `builtin:skills/${name}.md` };
    },
    async list(): Promise<string[]> {
      return [...await names()];
    },
    async peek(name: string): Promise<boolean> {
      return (await names()).includes(name);
    },
    summaries: async () =>
      given === undefined
        ? (await loadSharedSummaries()).summaries
        : await loadSummaries(await table()),
  };
}
