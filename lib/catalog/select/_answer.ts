// Private: read a model's selection answer leniently (code fences, prose around the JSON,
// trailing commas) and check its shape with valibot.

import * as v from "valibot";

// Only valibot functions the MCP layer uses too: valibot lands in a chunk shared with the first
// load of ".", so every new function here would grow it.

/** The answer's shape; absent fields take defaults, present ones must have the right type. */
export const AnswerSchema = v.looseObject({
  complexity: v.optional(v.string(), "simple"),
  skills: v.optional(v.array(v.string()), []),
  tools: v.optional(v.array(v.string()), []),
  needs_external: v.optional(v.boolean(), false),
  reasoning: v.optional(v.string(), ""),
});

/** A checked answer (`complexity` anything but `complex` reads as `simple`). */
export type Answer = v.InferOutput<typeof AnswerSchema> & { complexity: "simple" | "complex" };

/** The balanced `{…}` starting at `start` (strings and escapes respected), or undefined. */
function balanced(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

/** Remove commas before `}` or `]`, outside strings. */
function dropTrailingCommas(json: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i];
    if (inString) {
      out += ch;
      if (ch === "\\") out += json[++i] ?? "";
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === "," && /^\s*[}\]]/.test(json.slice(i + 1, i + 64))) continue;
    out += ch;
  }
  return out;
}

/** The first JSON object in `text` that has `skills` or `tools`; throws with the reason otherwise. */
export function readAnswer(text: string): Answer {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text)?.[1];
  const sources = fenced === undefined ? [text] : [fenced, text];
  let shapeProblem: string | undefined;
  for (const source of sources) {
    for (let at = source.indexOf("{"); at !== -1; at = source.indexOf("{", at + 1)) {
      const candidate = balanced(source, at);
      // No end from here; a later `{` may still open a whole object (a stray `{` in prose).
      if (candidate === undefined) continue;
      // A balanced `{…}` parses to an object or not at all.
      let value: object;
      try {
        value = JSON.parse(dropTrailingCommas(candidate));
      } catch {
        continue;
      }
      if (!("skills" in value) && !("tools" in value)) continue;
      const checked = v.safeParse(AnswerSchema, value);
      if (checked.success) {
        const complexity = checked.output.complexity === "complex" ? "complex" : "simple";
        return { ...checked.output, complexity };
      }
      shapeProblem = v.summarize(checked.issues).replace(/\s+/g, " ");
    }
  }
  throw new Error(
    shapeProblem
      ? `the model's JSON has the wrong shape (${shapeProblem})`
      : 'the model\'s answer holds no JSON object with "skills" or "tools"',
  );
}
