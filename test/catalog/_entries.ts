// Fixtures of catalog entries for the catalog tests: a host function that answers its own name,
// and a skill document of a name, a description and tags, with a one-line body.
import type { HostFunction } from "../../lib/mod.ts";

/** A host function `name` described as `description`, whose handler answers its name. */
export const fn = (name: string, description: string): HostFunction => ({
  name,
  description,
  handler: () => name,
});

/** A SKILL.md of `name`, `description` and (when any) `tags`, whose body is `Notes.` */
export const skillDoc = (name: string, description: string, tags: string[] = []) =>
  `---\nname: ${name}\ndescription: ${description}\n${
    tags.length > 0 ? `tags: [${tags.join(", ")}]\n` : ""
  }---\nNotes.\n`;
