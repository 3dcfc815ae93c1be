/**
 * `evaluateSelection`: run a labelled set of requests through the selection a
 * user runs (keyword ranking, or a model) and measure how well it picks.
 *
 * @module
 */

import type { Selection, SelectOptions } from "../model/select_types.ts";
import type { Catalog, TokenCounter } from "../model/types.ts";

/** One labelled request: the ids that are right answers (any of them), or `"none"`. */
export interface LabelledRequest {
  /** The request as a user would type it. */
  request: string;
  /** Ids that are each a right first pick, or `"none"` when no catalog entry fits. */
  expected: string[] | "none";
}

/** How one labelled request fared. */
export interface EvaluatedRequest {
  /** The request. */
  request: string;
  /** What the label said. */
  expected: string[] | "none";
  /** The ids compared with the label, best first (skills, tools or both; see {@linkcode evaluateSelection}). */
  ranked: string[];
  /** Every id the selection picked: skills, then tools. */
  selected: string[];
  /** 1-based place of the first right id in `ranked`, 0 when absent (or for `"none"`). */
  rank: number;
  /** Whether the request counts as right at top-1 (for `"none"`: nothing was selected). */
  hit: boolean;
  /** Tokens this selection puts in a prompt: the listing sent to a model plus the picked definitions. */
  promptTokens: number;
  /** How the selection was made, and its reason when it picked nothing. */
  via: Selection["via"];
}

/** What {@linkcode evaluateSelection} returns. */
export interface Evaluation {
  /** Requests run. */
  requests: number;
  /** Requests labelled with ids / labelled `"none"`. */
  labelled: { ids: number; none: number };
  /** Share of id-labelled requests whose first pick is right (0–1). */
  top1: number;
  /** Share of id-labelled requests with a right id among the first three picks (0–1). */
  top3: number;
  /** Mean reciprocal rank of the first right id (0–1). */
  mrr: number;
  /** Of the requests that got nothing selected, the share labelled `"none"` (1 when none got nothing). */
  nonePrecision: number;
  /** Of the requests labelled `"none"`, the share that got nothing selected (1 when there are none). */
  noneRecall: number;
  /** Requests whose label names no skill but that got a skill attached anyway. */
  unwantedSkills: number;
  /** Mean prompt tokens per request (see {@linkcode EvaluatedRequest.promptTokens}). */
  promptTokens: number;
  /** Every request that was not right at top-1, or got a skill its label does not want. */
  misses: EvaluatedRequest[];
  /** Every request, in input order. */
  results: EvaluatedRequest[];
}

/** Options of {@linkcode evaluateSelection}: the selection's own, plus how to select. */
export interface EvaluateOptions extends SelectOptions {
  /** The selection to measure (default `selectForRequest`); pass your own wrapper to test a variant. */
  select?: (catalog: Catalog, request: string, options: SelectOptions) => Promise<Selection>;
}

/**
 * Parse a labelled set written as JSON Lines: one
 * `{"request": "...", "expected": ["id", ...] | "id" | "none"}` per line;
 * blank lines and lines starting with `//` are skipped, other fields ignored.
 *
 * @throws {SyntaxError} Naming the line and the field when a line is not such an object.
 *
 * @example
 * ```ts
 * import { parseLabelledRequests } from "@skillmux/core/catalog";
 * const set = parseLabelledRequests('{"request": "sort a BAM", "expected": ["samtools"]}\n');
 * console.log(set[0].expected); // ["samtools"]
 * ```
 */
export function parseLabelledRequests(text: string): LabelledRequest[] {
  const out: LabelledRequest[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("//")) return;
    const where = `line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new SyntaxError(`${where}: not JSON (${(error as Error).message})`);
    }
    const row = value as { request?: unknown; expected?: unknown };
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new SyntaxError(`${where}: expected a JSON object with "request" and "expected"`);
    }
    if (typeof row.request !== "string" || row.request.trim() === "") {
      throw new SyntaxError(`${where}: "request" must be a non-empty string`);
    }
    const e = row.expected;
    const expected = e === "none" ? "none" : typeof e === "string" && e !== "" ? [e] : e;
    if (
      expected !== "none" &&
      (!Array.isArray(expected) || expected.length === 0 ||
        !expected.every((id) => typeof id === "string" && id !== ""))
    ) {
      throw new SyntaxError(
        `${where}: "expected" must be "none" or a non-empty list of entry ids`,
      );
    }
    out.push({ request: row.request, expected });
  });
  return out;
}

/**
 * Run each labelled request through the selection a user runs —
 * `selectForRequest` with `options` (keyword ranking, or the model in
 * `options.llm`) — and measure it: top-1, top-3 and the mean reciprocal rank
 * over requests labelled with ids, the precision and recall of "nothing fits"
 * over requests labelled `"none"`, skills attached where the label wants
 * none, prompt tokens per request (the listing sent to a model plus the
 * definitions of what was picked), and every miss. A request's picks are
 * compared in the group its label names: the selected skills when the
 * expected ids are skills, the selected tools when they are tools or
 * functions. Requests run one after another, in order.
 *
 * @example
 * ```ts
 * import { createBuiltinSource, createCatalog, createResolver } from "@skillmux/core";
 * import { evaluateSelection } from "@skillmux/core/catalog";
 * const catalog = await createCatalog({ resolver: createResolver({ sources: [createBuiltinSource()] }) });
 * const report = await evaluateSelection(catalog, [
 *   { request: "sort and index my BAM file", expected: ["samtools"] },
 *   { request: "what's the weather in Paris tomorrow?", expected: "none" },
 * ]);
 * console.log(report.top1, report.noneRecall, report.misses.length); // 1 1 0
 * ```
 */
export async function evaluateSelection(
  catalog: Catalog,
  labelled: readonly LabelledRequest[],
  options: EvaluateOptions = {},
): Promise<Evaluation> {
  const { select: given, ...selectOptions } = options;
  const select = given ?? (await import("./select.ts")).selectForRequest;
  const count = options.countTokens ?? (await import("../build/tokens.ts")).countTokens;
  const results: EvaluatedRequest[] = [];
  for (const { request, expected } of labelled) {
    const selection = await select(catalog, request, selectOptions);
    results.push(await judge(catalog, request, expected, selection, count));
  }
  return summarise(catalog, results);
}

async function judge(
  catalog: Catalog,
  request: string,
  expected: string[] | "none",
  selection: Selection,
  count: TokenCounter,
): Promise<EvaluatedRequest> {
  const selected = [...selection.skills, ...selection.tools];
  const kinds = expected === "none" ? [] : expected.map((id) => catalog.get(id)?.kind);
  const ranked = kinds.length > 0 && kinds.every((k) => k === "skill")
    ? selection.skills
    : kinds.length > 0 && kinds.every((k) => k === "tool" || k === "function")
    ? selection.tools
    : selected;
  const rank = expected === "none" ? 0 : ranked.findIndex((id) => expected.includes(id)) + 1;
  let promptTokens = selection.listing?.tokens ?? 0;
  for (const id of selected) promptTokens += await count(await definitionOf(catalog, id));
  return {
    request,
    expected,
    ranked,
    selected,
    rank,
    hit: expected === "none" ? selected.length === 0 : rank === 1,
    promptTokens,
    via: selection.via,
  };
}

/** The text an entry puts in a prompt: a skill's body, a tool's name, description and schema. */
async function definitionOf(catalog: Catalog, id: string): Promise<string> {
  const entry = catalog.get(id);
  if (!entry) return "";
  if (entry.kind === "skill") {
    const hit = await catalog.loadSkill(id).catch(() => undefined);
    return hit ? `${entry.description}\n${hit.skill.body}` : entry.description;
  }
  return JSON.stringify({
    name: entry.id,
    description: entry.description,
    parameters: entry.inputSchema ?? {},
  });
}

function summarise(catalog: Catalog, results: EvaluatedRequest[]): Evaluation {
  const withIds = results.filter((r) => r.expected !== "none");
  const none = results.filter((r) => r.expected === "none");
  const empty = results.filter((r) => r.selected.length === 0);
  const share = (k: number, n: number) => (n === 0 ? 1 : k / n);
  const wantsNoSkill = (r: EvaluatedRequest) =>
    r.expected === "none" || r.expected.every((id) => catalog.get(id)?.kind !== "skill");
  const unwanted = (r: EvaluatedRequest) =>
    wantsNoSkill(r) && r.selected.some((id) => catalog.get(id)?.kind === "skill");
  return {
    requests: results.length,
    labelled: { ids: withIds.length, none: none.length },
    top1: share(withIds.filter((r) => r.rank === 1).length, withIds.length),
    top3: share(withIds.filter((r) => r.rank >= 1 && r.rank <= 3).length, withIds.length),
    mrr: share(withIds.reduce((s, r) => s + (r.rank > 0 ? 1 / r.rank : 0), 0), withIds.length),
    nonePrecision: share(empty.filter((r) => r.expected === "none").length, empty.length),
    noneRecall: share(none.filter((r) => r.hit).length, none.length),
    unwantedSkills: results.filter(unwanted).length,
    promptTokens: results.length === 0
      ? 0
      : Math.round(results.reduce((s, r) => s + r.promptTokens, 0) / results.length),
    misses: results.filter((r) => !r.hit || unwanted(r)),
    results,
  };
}
