// Private: the skills server's answers to the resource and skills-extension methods, one
// implementation for every path — Streamable HTTP in either era (_own.ts) and the SDK's server
// over stdio and 2025 HTTP (_mcp.ts): `resources/list` (each skill, and each file of a folder
// skill as `skill://<name>/<path>`), `resources/templates/list`, `resources/read`,
// `skills/list` and `skills/get` (SEP-2640 entries with every file's size and digest).

import type { SkillCatalog } from "./_catalog.ts";
import { fileAt, fileContents, fileResources, skillEntry } from "./_skill_files.ts";
import { decodeUriName } from "./_uri_name.ts";
import { safeNormalizeSkillName } from "../skill/name.ts";

const MARKDOWN = "text/markdown";

/** The templates every path lists. */
export const SKILL_TEMPLATES = [
  {
    uriTemplate: "skill://{name}",
    name: "skill",
    description: "A skill by name, as Markdown",
    mimeType: MARKDOWN,
  },
  {
    uriTemplate: "skill://{name}/{+path}",
    name: "skill-file",
    description: "A file of a skill's folder (SKILL.md, or a path its files list)",
  },
];

/** The contents of a `resources/read` of a `skill://` URI, or `undefined` when there is none. */
export async function readSkillUri(
  catalog: SkillCatalog,
  uri: string,
): Promise<Record<string, unknown> | undefined> {
  const match = /^skill:\/\/([^/?#]+)(?:\/([^?#]+))?$/.exec(uri);
  if (!match) return undefined;
  // Normalised, not lowercased: a look-alike (the Kelvin sign) must not lowercase to ASCII.
  const name = safeNormalizeSkillName(decodeUriName(match[1], uri));
  if (name === undefined) return undefined;
  const entry = await catalog.get(name);
  if (entry === undefined) return undefined;
  if (match[2] === undefined || match[2] === "SKILL.md") {
    return { uri, mimeType: MARKDOWN, text: entry.text };
  }
  const path = fileAt(entry, match[2]);
  return path === undefined ? undefined : fileContents(uri, path, await entry.read(path));
}

/** Every skill's resource, then the files of each. */
export async function listSkillResources(
  catalog: SkillCatalog,
): Promise<Array<Record<string, unknown>>> {
  const { entries } = await catalog.snapshot();
  const skills = [...entries.values()];
  return [
    ...skills.map((e) => ({
      uri: `skill://${e.name}`,
      name: e.name,
      description: e.description,
      mimeType: MARKDOWN,
    })),
    ...skills.flatMap(fileResources),
  ];
}

/**
 * The result of a resource or skills method, `null` for a URI that names nothing, or
 * `undefined` for a method this module does not answer.
 */
export async function skillResult(
  catalog: SkillCatalog,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown> | null | undefined> {
  switch (method) {
    case "resources/list":
      return { resources: await listSkillResources(catalog) };
    case "resources/templates/list":
      return { resourceTemplates: SKILL_TEMPLATES };
    case "resources/read": {
      const contents = await readSkillUri(catalog, String(params.uri));
      return contents === undefined ? null : { contents: [contents] };
    }
    case "skills/list": {
      const { entries } = await catalog.snapshot();
      return { skills: await Promise.all([...entries.values()].map(skillEntry)) };
    }
    case "skills/get": {
      const match = /^skill:\/\/([^/]+)\/SKILL\.md$/.exec(String(params.uri));
      const entry = match ? await catalog.get(match[1]) : undefined;
      return entry === undefined ? null : { skill: await skillEntry(entry) };
    }
    default:
      return undefined;
  }
}
