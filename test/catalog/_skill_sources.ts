// Fixtures of the tests of skill sources that list by summaries (collect.test.ts,
// approvals.test.ts): a summary of a name (one digest for all), and a small `SkillSource` as an
// application would write its own, which never reads a body unless asked for it by name.
import type { SkillSource } from "../../lib/mod.ts";
import type { SkillSummary } from "../../lib/resolve/mod.ts";

/** The digest every {@link summary} declares. */
export const DIGEST = `sha256:${"a".repeat(64)}`;
/** A summary of `name`, described for testing, with `extra` fields. */
export const summary = (name: string, extra: Partial<SkillSummary> = {}): SkillSummary => ({
  name,
  description: `The ${name} skill. Use when testing.`,
  digest: DIGEST,
  ...extra,
});

/** A source that lists by summaries (never reading a body unless asked by name). */
export function summarySource(
  label: string,
  summaries: () => readonly SkillSummary[],
  get: SkillSource["get"] = () => Promise.resolve(undefined),
  timeoutMs?: number,
): SkillSource {
  return {
    label,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    get,
    list: () => Promise.resolve(summaries().map((s) => s.name)),
    // Handed out as it is: a frozen listing stays the same array.
    summaries: () => Promise.resolve(summaries() as SkillSummary[]),
  };
}
