// Private: give a skill its notebook display; the renderer loads in the background.

import { lazyRenderer, withLazyDisplay } from "../_display.ts";
import type { Skill } from "./types.ts";

const renderer = lazyRenderer(() => import("./_display.ts"));

/** `skill`, given its notebook display (a non-enumerable `Symbol.for("Jupyter.display")`). */
export function displayableSkill<T extends Skill>(skill: T): T {
  return withLazyDisplay(skill, renderer, (m, s) => m.skillDisplay(s));
}
