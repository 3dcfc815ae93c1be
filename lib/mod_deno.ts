/**
 * skillmux for Deno and JSR: the right skills and tools for an LLM request. This is `.` with the
 * o200k tokenizer and the built-in skill texts imported in a way Deno sees, so that they load
 * without `--allow-read` (from `jsr:` or a local checkout) and ship with `deno compile`; npm's
 * `.` (and so every bundler) loads them by URL instead. The API is the same.
 *
 * @example
 * ```ts
 * import { resolveSkill } from "@skillmux/core";
 * const hit = await resolveSkill("samtools");
 * console.log(hit.source); // "builtin" unless a user or community skill shadows it
 * ```
 *
 * @module
 */

import { loaders } from "./_runtime_loaders.ts";

loaders.builtinSkills ??= () =>
  import("./resolve/_builtin_skills.json", { with: { type: "json" } }).then((m) => m.default);
loaders.builtinSummaries ??= () =>
  import("./resolve/_builtin_summaries.json", { with: { type: "json" } }).then((m) => m.default);
loaders.tokenizer ??= () => import("./tokenizer/mod.ts");

export * from "./mod.ts";
