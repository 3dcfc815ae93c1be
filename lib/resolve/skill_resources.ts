/**
 * Which MCP resources are skills, and under which name.
 *
 * @module
 */

import { safeNormalizeSkillName } from "../skill/name.ts";
import type { Resource, ResourceTemplate } from "../mcp/protocol/types.ts";

/** A resource recognised as a skill. */
export interface SkillResource {
  /** The skill name. */
  name: string;
  /** The resource to read. */
  uri: string;
  /** The resource's description, when it has one. */
  description?: string;
}

/**
 * The skill name a resource stands for, or `undefined`. Recognised:
 * `skill://<name>`, `skill://<name>/SKILL.md`, any `…/<name>/SKILL.md`
 * (SEP-2640, FastMCP), and any `text/markdown` resource whose `name` is a valid
 * skill name. Names are lowercased and must pass the skill name rules.
 *
 * @example
 * ```ts
 * import { skillNameOf } from "@skillmux/core/resolve";
 * console.log(skillNameOf({ uri: "skill://samtools", name: "samtools" })); // "samtools"
 * console.log(skillNameOf({ uri: "skill://acme/billing/refunds/SKILL.md", name: "x" })); // "refunds"
 * console.log(skillNameOf({ uri: "file:///notes.txt", name: "notes" })); // undefined
 * ```
 */
export function skillNameOf(
  resource: Pick<Resource, "uri" | "name" | "mimeType">,
): string | undefined {
  const { uri } = resource;
  let candidate: string | undefined;
  const direct = /^skill:\/\/([^/?#]+)\/?$/i.exec(uri);
  const skillMd = /\/([^/?#]+)\/SKILL\.md$/i.exec(uri);
  if (direct) candidate = direct[1];
  else if (skillMd) candidate = skillMd[1];
  else if (resource.mimeType?.toLowerCase().startsWith("text/markdown")) candidate = resource.name;
  return candidate === undefined ? undefined : safeNormalizeSkillName(safeDecode(candidate));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The skills among `resources`, first occurrence of each name kept.
 *
 * @example
 * ```ts
 * import { skillResources } from "@skillmux/core/resolve";
 * const skills = skillResources([
 *   { uri: "skill://bwa", name: "bwa", description: "BWA notes" },
 *   { uri: "demo://other", name: "other" },
 * ]);
 * console.log(skills); // [{ name: "bwa", uri: "skill://bwa", description: "BWA notes" }]
 * ```
 */
export function skillResources(resources: readonly Resource[]): SkillResource[] {
  const found = new Map<string, SkillResource>();
  for (const resource of resources) {
    const name = skillNameOf(resource);
    if (name === undefined || found.has(name)) continue;
    const entry: SkillResource = { name, uri: resource.uri };
    if (typeof resource.description === "string") entry.description = resource.description;
    found.set(name, entry);
  }
  return [...found.values()];
}

/**
 * Whether a server's templates let skills be read by name (`skill://{name}`,
 * `skill://{name}/SKILL.md`): then `resources/read skill://<name>` is worth
 * trying for a skill that is not listed.
 *
 * @example
 * ```ts
 * import { hasSkillTemplate } from "@skillmux/core/resolve";
 * console.log(hasSkillTemplate([{ uriTemplate: "skill://{name}", name: "skill" }])); // true
 * ```
 */
export function hasSkillTemplate(templates: readonly ResourceTemplate[]): boolean {
  return templates.some((t) => /^skill:\/\/\{[^}]+\}(\/SKILL\.md)?$/i.test(t.uriTemplate));
}
