/**
 * The skills extension (SEP-2640) client: entries, verified lazy reads.
 *
 * @module
 */

export type * from "./types.ts";
export * from "./client.ts";
export { MAX_SKILL_BYTES, MAX_SKILL_FILES } from "./extension.ts";
