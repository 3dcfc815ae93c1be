// Every TypeScript block of docs/frameworks.md type-checks as a user's file would, against the
// package entries (the AI SDK and LangChain resolved from the repository's node_modules), like
// README.md's blocks in test/readme.test.ts.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { createDenoProject, denoBinary, runDeno } from "../_deno_project.ts";

/** The ```ts blocks of `markdown` with the line each starts on. */
function blocks(markdown: string): Array<{ line: number; code: string }> {
  const out: Array<{ line: number; code: string }> = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i])) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]);
    out.push({ line: start + 1, code: body.join("\n") });
  }
  return out;
}

const skip = denoBinary() === undefined ? "no deno binary" : false;

test("every TypeScript block of docs/frameworks.md type-checks", { skip }, async () => {
  const doc = await readFile(new URL("../../docs/frameworks.md", import.meta.url), "utf8");
  const found = blocks(doc);
  assert.equal(found.length, 3);
  const dir = await mkdtemp(join(tmpdir(), "skillmux-frameworks-doc-"));
  try {
    await createDenoProject(dir);
    const files = await Promise.all(found.map(async (b) => {
      const file = `frameworks_line_${b.line}.ts`;
      await writeFile(join(dir, file), `${b.code}\nexport {};\n`);
      return file;
    }));
    const { code, stdout, stderr } = await runDeno(["check", ...files], {
      cwd: dir,
      env: { HOME: process.env.HOME ?? dir },
      timeoutMs: 300_000,
    });
    assert.equal(code, 0, `docs/frameworks.md blocks fail to type-check:\n${stderr}${stdout}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
