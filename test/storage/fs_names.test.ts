import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import fc from "fast-check";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { decodeName, encodeSegment, fileNameProblem } from "../../lib/storage/_fs_names.ts";
import { isValidStorageKey } from "../../lib/storage/key.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

/** Characters that make up (and break) percent-encodings, for name fuzzing. */
const ESCAPE_BITS = fc.constantFrom("%", "2", "5", "E", "e", "A", "3", "F", ".", " ", "x", ":");

/** Key → the file names written on disk (one folder level per segment). */
const ON_DISK: ReadonlyArray<[string, string[]]> = [
  ["samtools.md", ["samtools.md"]],
  ["a/b.md", ["a", "b.md"]],
  ["skills/ünïcødé-技能.md", ["skills", "ünïcødé-技能.md"]],
  ["emoji 😀 spaced.md", ["emoji 😀 spaced.md"]],
  ['q?a*b:c"d<e>f|g', ["q%3Fa%2Ab%3Ac%22d%3Ce%3Ef%7Cg"]],
  ["100%", ["100%25"]],
  [".hidden", ["%2Ehidden"]],
  ["dir/..x", ["dir", "%2E.x"]],
  ["trailing.", ["trailing%2E"]],
  ["trailing ", ["trailing%20"]],
  [" leading space", [" leading space"]],
  ["a.b.c", ["a.b.c"]],
];

describe("fs storage file names", () => {
  for (const [key, names] of ON_DISK) {
    test(`key ${JSON.stringify(key)} is ${names.join("/")} on disk`, async () => {
      const root = await makeTempDir();
      const store = createFsStorage({ root });
      await store.set(key, "v");
      let dir = root;
      for (const name of names) {
        assert.deepEqual(await readdir(dir), [name]);
        dir = path.join(dir, name);
      }
      assert.deepEqual(await store.keys(), [key]);
    });
  }

  test("files dropped into the folder are keys; dotfiles and non-encodings are not", async () => {
    const root = await makeTempDir();
    await mkdir(path.join(root, ".git"));
    await mkdir(path.join(root, "skills"));
    const files = [
      "samtools.md",
      "skills/bwa.md",
      "skills/.DS_Store",
      ".git/config",
      ".tmp-abc",
      ".env",
      "%41.md",
      "stray%.md",
      "lower%2e.md",
      "dot.",
      "%2Ehidden",
    ];
    for (const file of files) await writeFile(path.join(root, file), file);
    const store = createFsStorage({ root });
    assert.deepEqual(await store.keys(), [".hidden", "samtools.md", "skills/bwa.md"]);
    assert.equal(await store.get("samtools.md"), "samtools.md");
    assert.equal(await store.get(".hidden"), "%2Ehidden");
    await store.clear!();
    assert.deepEqual((await readdir(root)).sort(), [
      "%41.md",
      ".env",
      ".git",
      ".tmp-abc",
      "dot.",
      "lower%2e.md",
      "skills",
      "stray%.md",
    ]);
  });

  test("decodeName is the exact inverse of encodeSegment (property)", () => {
    const segment = fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 })
      .filter((s) => isValidStorageKey(s) && !s.includes("/"));
    fc.assert(
      fc.property(segment, (s) => {
        const name = encodeSegment(s);
        assert.equal(decodeName(name), s);
        assert.ok(!name.startsWith("."), name);
        assert.ok(!/[:*?"<>|\\/]/.test(name), name);
        assert.ok(!/[. ]$/.test(name), name);
      }),
      { numRuns: 2000 },
    );
  });

  test("every name decodes to at most one segment, and only canonical encodings (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: ESCAPE_BITS, maxLength: 12 }), (name) => {
        const segment = decodeName(name);
        if (segment !== undefined) assert.equal(encodeSegment(segment), name);
      }),
      { numRuns: 2000 },
    );
  });

  test("a lone surrogate cannot be a file name, and says so", () => {
    assert.equal(fileNameProblem("a\ud800"), "lone surrogates cannot be stored in file names");
    assert.equal(fileNameProblem("a😀"), undefined);
  });
});
