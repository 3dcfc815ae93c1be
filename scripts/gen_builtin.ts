// Generate lib/resolve/_builtin_skills.json (name → Markdown text) from skills/*.md. It is JSON,
// not a module, so that `createBuiltinSource()` can load it by URL at run time and a bundle of "."
// does not inline it (lib/resolve/_builtin_skills.ts imports it for `./builtin-skills`).
// Also lib/resolve/_builtin_summaries.json: every name and the summary a listing needs (what
// `createBuiltinSource().summaries()` returns), so that listing the built-ins (a page's first
// view) loads ~20 kB gzip instead of every text; a body loads when a skill is resolved.
//
//   node --import tsx scripts/gen_builtin.ts        (or: npx deno run -A scripts/gen_builtin.ts)
//
// test/builtin.test.ts fails when the generated module is stale.

import { readdir, readFile, writeFile } from "node:fs/promises";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { summarizeBuiltins } from "../lib/resolve/_builtin_summary.ts";

const root = new URL("../", import.meta.url);
/** Where the generated module lives. */
export const GENERATED_PATH: string = fileURLToPath(
  new URL("lib/resolve/_builtin_skills.json", root),
);

/** Where the generated summaries live. */
export const SUMMARIES_PATH: string = fileURLToPath(
  new URL("lib/resolve/_builtin_summaries.json", root),
);

async function readSkills(): Promise<Record<string, string>> {
  const dir = new URL("skills/", root);
  const files = (await readdir(dir)).filter((f) => f.endsWith(".md")).sort();
  const skills: Record<string, string> = {};
  for (const file of files) skills[file.slice(0, -3)] = await readFile(new URL(file, dir), "utf8");
  return skills;
}

/** The generated JSON's text for the skills currently in `skills/`: one skill a line. */
export async function renderBuiltinModule(): Promise<string> {
  const lines = Object.entries(await readSkills()).map(([name, text]) =>
    `  ${JSON.stringify(name)}: ${JSON.stringify(text)}`
  );
  return `{\n${lines.join(",\n")}\n}\n`;
}

/** The generated summaries' text for the skills currently in `skills/`: one summary a line. */
export async function renderBuiltinSummaries(): Promise<string> {
  const skills = await readSkills();
  const summaries = await summarizeBuiltins(skills);
  return `{\n  "names": ${JSON.stringify(Object.keys(skills).sort())},\n  "summaries": [\n${
    summaries.map((s) => `    ${JSON.stringify(s)}`).join(",\n")
  }\n  ]\n}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(GENERATED_PATH, await renderBuiltinModule());
  console.log(`wrote ${GENERATED_PATH}`);
  await writeFile(SUMMARIES_PATH, await renderBuiltinSummaries());
  console.log(`wrote ${SUMMARIES_PATH}`);
}
