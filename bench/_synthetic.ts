// Private: synthetic but realistic catalog content for the benchmarks: tool definitions shaped
// like those of popular MCP servers (a sentence or two of description, 2–4 described parameters)
// and one-line host functions, from a fixed vocabulary so every run builds the same set.

const VERBS = [
  "list",
  "get",
  "create",
  "update",
  "delete",
  "search",
  "export",
  "import",
  "sync",
  "archive",
];
const NOUNS = [
  "issue",
  "pull request",
  "channel message",
  "dashboard",
  "alert rule",
  "log query",
  "incident",
  "calendar event",
  "spreadsheet row",
  "customer record",
  "invoice",
  "deployment",
  "bucket object",
  "database table",
  "support ticket",
  "wiki page",
  "sample sheet",
  "sequencing run",
  "variant call",
  "pipeline job",
];
const FIELDS = ["id", "query", "project", "limit", "since", "owner", "status", "labels", "format"];

/** A tool as `tools/list` returns it. */
export interface SyntheticTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required: string[] };
}

/** Tool `i` of a server with `prefix` in its descriptions. */
export function syntheticTool(i: number, prefix: string): SyntheticTool {
  const verb = VERBS[i % VERBS.length];
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
  const fields = FIELDS.slice(i % 5, (i % 5) + 2 + (i % 3));
  return {
    name: `${verb}_${noun.replace(/ /g, "_")}${i >= VERBS.length * NOUNS.length ? `_${i}` : ""}`,
    title: `${verb[0].toUpperCase()}${verb.slice(1)} ${noun}`,
    description: `${verb[0].toUpperCase()}${
      verb.slice(1)
    } a ${noun} in ${prefix}. Returns the ${noun} as JSON with its id, owner, status and timestamps; use the project and limit parameters to narrow large workspaces. Requires read access to ${prefix}.`,
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(fields.map((f) => [f, {
        type: f === "limit" ? "integer" : "string",
        description: `The ${f} of the ${noun} to ${verb}${
          f === "limit" ? " (default 50, at most 500)" : ""
        }`,
      }])),
      required: fields.slice(0, 1),
    },
  };
}

/** A host function's name and description. */
export function syntheticFunction(i: number): { name: string; description: string } {
  const verb = VERBS[i % VERBS.length];
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
  return {
    name: `fn_${i}`,
    description: `${verb[0].toUpperCase()}${
      verb.slice(1)
    } the ${noun} number ${i} of the lab's records.`,
  };
}
