/**
 * Give a skill its notebook display; the renderer loads in the background.
 *
 * @module
 */

import { lazyRenderer, withLazyDisplay } from "../_display.ts";
import type { Skill } from "./types.ts";

const renderer = lazyRenderer(() => import("./display.ts"));

/**
 * `skill`, given its notebook display (a non-enumerable `Symbol.for("Jupyter.display")`).
 *
 * @example
 * ```ts
 * import { displayableSkill } from "./displayable.ts";
 * import { parseSkill } from "./parse.ts";
 * const { skill } = await parseSkill("---\nname: pdf\ndescription: Fill PDF forms.\n---\n# PDF\n");
 * const shown = displayableSkill(skill); // a notebook shows it as a table
 * ```
 */
export function displayableSkill<T extends Skill>(skill: T): T {
  return withLazyDisplay(skill, renderer, (m, s) => m.skillDisplay(s));
}
