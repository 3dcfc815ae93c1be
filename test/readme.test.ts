// Every TypeScript block of README.md type-checks as a user's file would: each block is written to
// its own module in a folder outside the repository whose import map resolves "@skillmux/core" (and
// its subpaths) to lib/, then `deno check` runs over all of them. A block preceded by
// `<!-- not checked: <reason> -->` is left out (shell sessions and JSON are never checked).
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createDenoProject, denoBinary, runDeno } from "./_deno_project.ts";

interface Block {
  line: number;
  code: string;
}

/** The ```ts blocks of `markdown`, with the line each starts on, minus opted-out ones. */
export function typeScriptBlocks(markdown: string): { checked: Block[]; skipped: Block[] } {
  const lines = markdown.split("\n");
  const checked: Block[] = [];
  const skipped: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(`{3,})(ts|typescript)\s*$/);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== open[1]; i++) body.push(lines[i]);
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === "") before--;
    const optOut = before >= 0 && /^<!-- not checked: .+ -->$/.test(lines[before].trim());
    (optOut ? skipped : checked).push({ line: start + 1, code: body.join("\n") });
  }
  return { checked, skipped };
}

const skip = denoBinary() === undefined
  ? "no deno binary (npm install puts one in node_modules)"
  : false;

test("every TypeScript block of README.md type-checks against the package", { skip }, async () => {
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const { checked } = typeScriptBlocks(readme);
  assert.ok(checked.length >= 12, `found only ${checked.length} blocks`);
  const dir = await mkdtemp(join(tmpdir(), "skillmux-readme-"));
  try {
    await createDenoProject(dir);
    const files = await Promise.all(checked.map(async (block) => {
      const file = `readme_line_${block.line}.ts`;
      await writeFile(join(dir, file), `${block.code}\nexport {};\n`);
      return file;
    }));
    const { code, stdout, stderr } = await runDeno(["check", ...files], {
      cwd: dir,
      env: { HOME: process.env.HOME ?? dir },
      timeoutMs: 300_000,
    });
    assert.equal(
      code,
      0,
      `README blocks fail to type-check (file names give the line):\n${stderr}${stdout}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the block extractor finds blocks and honours the opt-out marker", () => {
  const md =
    "x\n```ts\nconst a = 1;\n```\n<!-- not checked: illustrative -->\n\n```ts\nnope(\n```\n" +
    "```sh\nls\n```\n````typescript\nconst b = 2;\n````\n";
  const { checked, skipped } = typeScriptBlocks(md);
  assert.deepEqual(checked, [{ line: 2, code: "const a = 1;" }, {
    line: 13,
    code: "const b = 2;",
  }]);
  assert.deepEqual(skipped, [{ line: 7, code: "nope(" }]);
});
