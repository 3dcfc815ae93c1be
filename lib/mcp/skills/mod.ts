/**
 * The skills extension (SEP-2640) client: entries, verified lazy reads.
 *
 * @module
 */

export {
  getSkillEntry,
  listSkillEntries,
  loadSkill,
  readSkillFile,
  readSkillFileBytes,
} from "./client.ts";
export { MAX_SKILL_BYTES, MAX_SKILL_FILES, offersSkills, SKILLS_EXTENSION } from "./extension.ts";
export type {
  LoadedSkill,
  SkillEntry,
  SkillEntryListing,
  SkillFile,
  SkillReadOptions,
} from "./types.ts";
