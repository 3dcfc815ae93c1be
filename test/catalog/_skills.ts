// Fixtures of the catalog tests that build catalogs of skills: a skill document of a name, a
// description and tags, with a one-line body.
/** A SKILL.md of `name`, `description` and (when any) `tags`, whose body is `Notes.` */
export const skillDoc = (name: string, description: string, tags: string[] = []) =>
  `---\nname: ${name}\ndescription: ${description}\n${
    tags.length > 0 ? `tags: [${tags.join(", ")}]\n` : ""
  }---\nNotes.\n`;
