/**
 * `selectForRequest`: one LLM call picks the skills and tools a request needs
 * from the compact catalog; keyword ranking answers when no LLM does.
 *
 * @module
 */

import type { Selection, SelectOptions } from "../model/select_types.ts";
import type { Catalog } from "../model/types.ts";

/**
 * Select the skills and tools `request` needs with **one** call to `llm`: the
 * prompt holds the compact catalog (within `budget` tokens, the least relevant
 * entries left out first), optional `context` and the request, and asks for
 * JSON (`complexity`, `skills`, `tools`, `needs_external`, `reasoning`). The
 * answer is read leniently (code fences, prose around it, trailing commas) and
 * checked: ids not in the catalog are dropped with a diagnostic, lists are
 * capped. When there is no `llm`, or it throws, times out or answers
 * unusably, keyword ranking selects instead and `fallback` says why.
 *
 * @throws {RangeError} When `request` (or `context`) is longer than `maxRequestChars`.
 *
 * @example Keyword selection (no LLM configured)
 * ```ts
 * import { createBuiltinSource, createCatalog, createResolver, selectForRequest } from "@skillmux/core";
 * const catalog = await createCatalog({ resolver: createResolver({ sources: [createBuiltinSource()] }) });
 * const selection = await selectForRequest(catalog, "sort and index my BAM file");
 * console.log(selection.via, selection.skills[0]); // "keyword" "samtools"
 * ```
 *
 * @example With a model
 * ```ts
 * import { createCatalog, selectForRequest } from "@skillmux/core";
 * import { createOpenAiModel } from "@skillmux/core/llm";
 * const catalog = await createCatalog();
 * const llm = createOpenAiModel({ baseUrl: "http://127.0.0.1:8080/v1", model: "qwen2.5-7b-instruct" });
 * const selection = await selectForRequest(catalog, "sort and index my BAM file", { llm });
 * console.log(selection.via, selection.skills, selection.fallback?.message);
 * ```
 */
export async function selectForRequest(
  catalog: Catalog,
  request: string,
  options: SelectOptions = {},
): Promise<Selection> {
  const [{ select }, { displayableSelection }] = await Promise.all([
    import("./_select.ts"),
    import("../build/_display.ts"),
  ]);
  return displayableSelection(await select(catalog, request, options));
}
