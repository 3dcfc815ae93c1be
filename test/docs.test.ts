// The user docs hold what they show. README.md and every docs/**/*.md (a new guide is picked up
// without touching this file):
// - every TypeScript block type-checks as a user's file would: each block is written to its own
//   module in a folder outside the repository whose import map resolves "@skillmux/core" (and its
//   subpaths) to lib/, then `deno check` runs over all of them. A block preceded by
//   `<!-- not checked: <reason> -->` is left out (shell sessions and JSON are never checked);
// - every relative link reaches a file or folder of the repository, and every `#anchor` (in the
//   same file or another Markdown file) names a heading there.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { test } from "node:test";
import { createDenoProject, denoBinary, runDeno } from "./_deno_project.ts";
import { ONCE_UNDER_DENO } from "./_once.ts";
import {
  docFiles,
  headingAnchors,
  headingSlug,
  markdownLinks,
  ROOT,
  typeScriptBlocks,
} from "../scripts/_markdown.ts";

const skip = denoBinary() === undefined
  ? "no deno binary (npm install puts one in node_modules)"
  : ONCE_UNDER_DENO;

const read = (path: string) => readFile(join(ROOT, path), "utf8");

test("every TypeScript block of README.md and docs/*.md type-checks against the package", {
  skip,
}, async () => {
  const files = await docFiles();
  assert.ok(files.includes("docs/oauth.md"), `the guides are found: ${files.join(", ")}`);
  const dir = await mkdtemp(join(tmpdir(), "skillmux-docs-"));
  try {
    await createDenoProject(dir);
    const modules: string[] = [];
    for (const file of files) {
      for (const block of typeScriptBlocks(await read(file)).checked) {
        // docs/oauth.md line 12 → docs_oauth.md_line_12.ts: the name says where the block is.
        const name = `${file.replace(/\//g, "_")}_line_${block.line}.ts`;
        await writeFile(join(dir, name), `${block.code}\nexport {};\n`);
        modules.push(name);
      }
    }
    assert.ok(modules.length >= 15, `found only ${modules.length} blocks`);
    const { code, stdout, stderr } = await runDeno(["check", ...modules], {
      cwd: dir,
      env: { HOME: process.env.HOME ?? dir },
      timeoutMs: 300_000,
    });
    assert.equal(
      code,
      0,
      `Doc blocks fail to type-check (file names give the file and line):\n${stderr}${stdout}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** The broken relative links and anchors of `file` (relative to the root), as messages. */
async function brokenLinks(file: string): Promise<string[]> {
  const broken: string[] = [];
  const text = await read(file);
  for (const { line, target } of markdownLinks(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
    const [path, anchor] = target.split("#", 2) as [string, string | undefined];
    const resolved = path === "" ? file : normalize(join(dirname(file), decodeURI(path)));
    const where = `${file}:${line}: ${target}`;
    if (resolved.startsWith("..") || !existsSync(join(ROOT, resolved))) {
      broken.push(`${where}: no file ${resolved}`);
      continue;
    }
    if (anchor === undefined || anchor === "" || !resolved.endsWith(".md")) continue;
    if (!headingAnchors(await read(resolved)).has(anchor)) {
      broken.push(`${where}: no heading with anchor #${anchor} in ${resolved}`);
    }
  }
  return broken;
}

test("every relative link and #anchor in README.md and docs/*.md leads somewhere", async () => {
  const broken = (await Promise.all((await docFiles()).map(brokenLinks))).flat();
  assert.deepEqual(broken, []);
});

test("every guide in docs/ is linked from README.md or from another guide", async () => {
  const files = await docFiles();
  const linked = new Set<string>();
  for (const file of files) {
    for (const { target } of markdownLinks(await read(file))) {
      const path = target.split("#")[0];
      if (path !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        const resolved = normalize(join(dirname(file), decodeURI(path)));
        if (resolved !== file) linked.add(resolved);
      }
    }
  }
  assert.deepEqual(files.filter((f) => !linked.has(f) && f !== "README.md"), [], "orphan guides");
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

test("links: found outside code only; anchors follow GitHub's slugs, repeats numbered", () => {
  const md = "# The `skillmux` command\n[a](docs/x.md#y) `[b](no.md)`\n```md\n[c](no.md)\n## " +
    "Fenced\n```\n## OAuth: servers that need a sign-in\n## Use it\n## Use it\n![img](p.png)\n";
  assert.deepEqual(markdownLinks(md), [{ line: 2, target: "docs/x.md#y" }, {
    line: 10,
    target: "p.png",
  }]);
  assert.deepEqual([...headingAnchors(md)], [
    "the-skillmux-command",
    "oauth-servers-that-need-a-sign-in",
    "use-it",
    "use-it-1",
  ]);
  assert.equal(
    headingSlug("Multi-user services: users, sharing"),
    "multi-user-services-users-sharing",
  );
});

test("a broken link and a broken anchor are reported with file and line", async () => {
  const dir = await mkdtemp(join(ROOT, "docs", ".tmp-links-"));
  const name = `docs/${dir.split("/").at(-1)}/probe.md`;
  try {
    await writeFile(
      join(ROOT, name),
      "# Probe\n\n[ok](../oauth.md) [self](#probe) [gone](../missing.md)\n[bad](#nowhere)\n",
    );
    assert.deepEqual(await brokenLinks(name), [
      `${name}:3: ../missing.md: no file docs/missing.md`,
      `${name}:4: #nowhere: no heading with anchor #nowhere in ${name}`,
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
