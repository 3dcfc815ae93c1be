// A selection of these ids, as `selectForRequest` returns them, for the prompt and framework tests.
import type { Selection } from "../lib/mod.ts";

/** A selection of `skills` and `tools` by the model, nothing held, with no diagnostics. */
export function selection(skills: string[], tools: string[] = []): Selection {
  return {
    via: "llm",
    complexity: "simple",
    skills,
    tools,
    needsExternal: false,
    reasoning: "",
    diagnostics: [],
    held: [],
  };
}
