// Generate lib/resolve/_builtin_skills.json (name → Markdown text) from skills/*.md. It is JSON,
// not a module, so that `createBuiltinSource()` can load it by URL at run time and a bundle of "."
// does not inline it (lib/resolve/_builtin_skills.ts imports it for `./builtin-skills`).
//
//   node --import tsx scripts/gen_builtin.ts        (or: npx deno run -A scripts/gen_builtin.ts)
//
// test/builtin.test.ts fails when the generated module is stale.

import { readdir, readFile, writeFile } from "node:fs/promises";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = new URL("../", import.meta.url);
/** Where the generated module lives. */
export const GENERATED_PATH: string = fileURLToPath(
  new URL("lib/resolve/_builtin_skills.json", root),
);

/** The generated JSON's text for the skills currently in `skills/`: one skill a line. */
export async function renderBuiltinModule(): Promise<string> {
  const dir = new URL("skills/", root);
  const files = (await readdir(dir)).filter((f) => f.endsWith(".md")).sort();
  const lines: string[] = [];
  for (const file of files) {
    const text = await readFile(new URL(file, dir), "utf8");
    lines.push(`  ${JSON.stringify(file.slice(0, -3))}: ${JSON.stringify(text)}`);
  }
  return `{\n${lines.join(",\n")}\n}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(GENERATED_PATH, await renderBuiltinModule());
  console.log(`wrote ${GENERATED_PATH}`);
}
