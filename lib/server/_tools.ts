// Private: the tool definitions of the skills server.

const RESULT = {
  type: "object",
  properties: {
    name: { type: "string" },
    uri: { type: "string" },
    description: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    score: { type: "number" },
  },
  required: ["name", "uri", "description", "tags", "score"],
};

/** `search_skills`, `get_skill` and `read_skill_file`, as `tools/list` returns them. */
export const SKILL_TOOLS = [
  {
    name: "search_skills",
    title: "Search skills",
    description:
      "Find skills by keywords, ranked (BM25) over their name, tags, description, concepts and example tasks. Returns names, skill:// URIs and descriptions; read one with get_skill.",
    inputSchema: {
      type: "object" as const,
      properties: {
        query: { type: "string", description: 'Keywords, e.g. "sort bam"' },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: 50,
          description: "Most results (default 10)",
        },
      },
      required: ["query"],
    },
    outputSchema: {
      type: "object" as const,
      properties: { results: { type: "array", items: RESULT } },
      required: ["results"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "get_skill",
    title: "Get a skill",
    description:
      "The full Markdown of one skill by name (its SKILL.md), followed by the list of its files (scripts, references, assets) with their sizes; read one with read_skill_file.",
    inputSchema: {
      type: "object" as const,
      properties: { name: { type: "string", description: 'The skill name, e.g. "samtools"' } },
      required: ["name"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "read_skill_file",
    title: "Read a file of a skill",
    description:
      "One file of a skill's folder (a script, reference or asset that its SKILL.md names), by the skill's name and the file's path inside the folder. Text comes back as text, other files as a base64 resource. Never runs anything.",
    inputSchema: {
      type: "object" as const,
      properties: {
        name: { type: "string", description: 'The skill name, e.g. "pdf"' },
        path: {
          type: "string",
          description: 'The file\'s path inside the skill folder, e.g. "scripts/fill.py"',
        },
      },
      required: ["name", "path"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];
