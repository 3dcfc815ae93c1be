// Private: one answer item of the `/v0.1/` API (`{ server, _meta }`) made a DirectoryEntry, and
// the search words matched against an entry.

import * as v from "valibot";
import { DirectoryError } from "./errors.ts";
import { parseServerJson } from "./server_json.ts";
import { describeIssue } from "./_issues.ts";
import type { DirectoryEntry, EntryStatus } from "./types.ts";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
const date = v.optional(v.pipe(v.string(), v.maxLength(64)));
const Official = v.object({
  status: v.optional(v.picklist(["active", "deprecated", "deleted"])),
  statusMessage: v.optional(v.pipe(v.string(), v.maxLength(2_000))),
  publishedAt: date,
  updatedAt: date,
  isLatest: v.optional(v.boolean()),
});
const Item = v.object({
  server: v.unknown(),
  _meta: v.optional(v.record(v.string(), v.unknown())),
});

/** The entry of one `ServerResponse`, or a `DirectoryError` `invalid` naming the field. */
export function entryOf(value: unknown, directory: string, where: string): DirectoryEntry {
  const item = v.safeParse(Item, value);
  if (!item.success || item.output.server === undefined) {
    throw new DirectoryError("invalid", `${where}: expected { "server": {…}, "_meta": {…} }`, {
      field: "server",
    });
  }
  const server = parseServerJson(item.output.server, where);
  const meta = item.output._meta?.[OFFICIAL];
  let official: v.InferOutput<typeof Official> = {};
  if (meta !== undefined) {
    const checked = v.safeParse(Official, meta);
    if (!checked.success) {
      const { message } = describeIssue(checked.issues);
      throw new DirectoryError("invalid", `${where}: _meta["${OFFICIAL}"].${message}`, {
        server: server.name,
        field: `_meta.${OFFICIAL}`,
      });
    }
    official = checked.output;
  }
  const status: EntryStatus = official.status ?? "active";
  return {
    server,
    status,
    ...(official.statusMessage ? { statusMessage: official.statusMessage } : {}),
    ...(official.publishedAt ? { publishedAt: official.publishedAt } : {}),
    ...(official.updatedAt ? { updatedAt: official.updatedAt } : {}),
    ...(official.isLatest !== undefined ? { isLatest: official.isLatest } : {}),
    directory,
  };
}

/** The words of a search, lower case. */
export function words(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether every word appears in the entry's name, title, description or keywords. */
export function matches(entry: DirectoryEntry, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const text = [
    entry.server.name,
    entry.server.title ?? "",
    entry.server.description,
    ...(entry.keywords ?? []),
  ].join(" ").toLowerCase();
  return terms.every((term) => text.includes(term));
}

/** Refuse a server name that is not `namespace/name`, or whose parts are `.` or `..`. */
export function checkName(name: string, pattern: RegExp): void {
  const parts = name.split("/");
  if (!pattern.test(name) || parts.some((p) => p === "." || p === "..")) {
    throw new DirectoryError(
      "invalid",
      `"${name.slice(0, 200)}" is not a server name: expected namespace/name, e.g. ` +
        `io.github.owner/server (letters, digits, ".", "-" and "_", one slash, no "..")`,
      { field: "name" },
    );
  }
}
