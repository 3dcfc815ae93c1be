/**
 * The YAML front matter of a skill as a plain object, verbatim: what SEP-2640 hosts compare
 * field by field with a `skills/list` entry. Safe YAML only (core schema, unique keys, no merge
 * keys, a small alias budget).
 *
 * @module
 */

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * The front matter of `text` as a plain object, or `undefined` when there is none or it is not
 * a YAML mapping.
 *
 * @example
 * ```ts
 * import { readFrontMatter } from "@skillmux/core/skill";
 * const fields = await readFrontMatter("---\nname: bwa\ndescription: Align reads.\n---\nBody\n");
 * console.log(fields); // { name: "bwa", description: "Align reads." }
 * ```
 */
export async function readFrontMatter(text: string): Promise<Record<string, unknown> | undefined> {
  const match = BLOCK.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (match === null) return undefined;
  const [{ parseDocument }, { MAX_ALIAS_COUNT }] = await Promise.all([
    import("./_yaml_parser.ts"),
    import("./_yaml.ts"),
  ]);
  const doc = parseDocument(match[1], { schema: "core", uniqueKeys: true, merge: false });
  if (doc.errors.length > 0) return undefined;
  try {
    const value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : undefined;
  } catch {
    return undefined;
  }
}
