// Private: the options of lintSkill (lint.ts), apart so that its checks can use them.

/** Options of `lintSkill`; every one has a default. */
export interface LintSkillOptions {
  /**
   * Which bar: `"auto"` (default) holds skills in skillmux's Concepts/Pitfalls/Examples format
   * ({@linkcode skillKind}) to that format's bar and Agent Skills to the specification only;
   * `"skillmux"` applies the format's bar to any skill; `"spec"` the specification only.
   */
  bar?: "auto" | "skillmux" | "spec";
  /**
   * The files of the skill's folder, as paths relative to it (`scripts/fill.py`): every relative
   * path the body names must be one of them (or a folder of them). Omit when not known: the
   * check is skipped. A single-file skill has `[]`.
   */
  files?: readonly string[];
  /** The 1-based line of the original text where the body starts, for the lines of findings. */
  bodyLine?: number;
  /** skillmux bar: fewest examples. Default 5. */
  minExamples?: number;
  /** skillmux bar: fewest concepts. Default 3. */
  minConcepts?: number;
  /** skillmux bar: fewest pitfalls. Default 3. */
  minPitfalls?: number;
  /** skillmux bar: shortest description, in characters. Default 20. */
  minDescriptionLength?: number;
  /** Longest description, in characters. Default 1024 (Agent Skills). */
  maxDescriptionLength?: number;
  /** Longer descriptions get a warning: Claude Code truncates listings there. Default 250. */
  listedDescriptionLength?: number;
  /** Hint (a warning) when the description does not say when to use the skill. Default `true`. */
  requireWhen?: boolean;
}
