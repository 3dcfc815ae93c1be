// Private: where a valibot issue is and what it says, for errors that name the field.

import type * as v from "valibot";

/** Where a valibot issue is, as `packages[0].runtimeHint`. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = "";
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The first issue of a failed parse, as `field: message (got …)`. */
export function describeIssue(issues: readonly v.BaseIssue<unknown>[]): {
  field: string;
  message: string;
} {
  const issue = issues[0];
  const field = issuePath(issue);
  const got = issue.received === undefined ? "" : ` (got ${issue.received.slice(0, 60)})`;
  return { field, message: `${field || "the document"}: ${issue.message}${got}` };
}
