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

/** `search_skills` and `get_skill`, as `tools/list` returns them. */
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
    description: "The full Markdown of one skill by name (concepts, pitfalls, worked examples).",
    inputSchema: {
      type: "object" as const,
      properties: { name: { type: "string", description: 'The skill name, e.g. "samtools"' } },
      required: ["name"],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];
