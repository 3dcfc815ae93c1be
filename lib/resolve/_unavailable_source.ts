// Private: a source that could not be set up (a permission missing, a registry unreadable).
// It stays in the chain so that every resolve and list reports why it was skipped, as a
// diagnostic of that source, and resolution goes on to the next one.

import type { SkillSource } from "./types.ts";

/** A source labelled `label` whose every call fails with `reason` (a sentence). */
export function unavailableSource(label: string, reason: string): SkillSource {
  const fail = (): Promise<never> => Promise.reject(new Error(reason));
  return { label, get: fail, list: fail };
}
