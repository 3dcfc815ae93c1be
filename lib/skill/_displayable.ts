// Private: give a skill its notebook display; the renderer loads on first display.

import { withDisplay } from "../_display.ts";
import type { Skill } from "./types.ts";

/** `skill`, given its notebook display (a non-enumerable `Symbol.for("Jupyter.display")`). */
export function displayableSkill<T extends Skill>(skill: T): T {
  return withDisplay(skill, async (s) => (await import("./_display.ts")).skillDisplay(s));
}
