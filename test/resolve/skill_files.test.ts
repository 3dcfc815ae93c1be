// The files of folder skills through the resolver: a folder skill's answer carries its folder,
// its files (path, size, digest, by the one dot-file rule) and a reader that returns them byte
// for byte, refusing paths it did not list; the same on disk (the zero-config folders) and in
// any storage (through its keys). The real published skills give the same files as a walk.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  createDefaultSources,
  createMemoryStorage,
  createResolver,
  createStorageSource,
  type Resolver,
  type Storage,
} from "../../lib/mod.ts";
import { isSkillFileError } from "../../lib/resolve/mod.ts";
import {
  DOT_FILES_KEPT,
  REAL_SKILLS,
  SHAPES_LOADED,
  SHAPES_REFUSED,
  shapesWithSecrets,
  skillFolders,
  symlinkOut,
  tempDir,
} from "../_agent_skills.ts";

const sha = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

async function folderResolver(root: string): Promise<Resolver> {
  const config = await tempDir();
  const sources = await createDefaultSources({
    userDir: root,
    communityDir: config,
    configDir: config,
    env: {},
    builtin: false,
  });
  return createResolver({ sources });
}

describe("the files of folder skills", () => {
  test("every real skill answers with its folder and every file, byte for byte", async () => {
    const resolver = await folderResolver(REAL_SKILLS);
    const names = await skillFolders(REAL_SKILLS);
    assert.equal(names.length, 45);
    let files = 0;
    for (const name of names) {
      const hit = await resolver.resolve(name);
      assert.equal(hit.folder, join(REAL_SKILLS, name), name);
      for (const file of hit.files) {
        const disk = new Uint8Array(await readFile(join(REAL_SKILLS, name, file.path)));
        const read = await hit.readFile(file.path);
        assert.deepEqual(read, disk, `${name}/${file.path}`);
        assert.equal(file.size, disk.byteLength);
        assert.equal(file.digest, sha(disk));
        files++;
      }
      const doc = await readFile(join(REAL_SKILLS, name, "SKILL.md"));
      assert.deepEqual(await hit.readFile("SKILL.md"), new Uint8Array(doc));
      assert.equal(hit.skill.digest, sha(new Uint8Array(doc)));
    }
    // 206 files in the vendored folder: README.md, LICENSE.md and 45 SKILL.md are not supporting files.
    assert.equal(files, 206 - 2 - 45);
    const rowan = await resolver.resolve("markdown-mermaid-writing");
    assert.equal(rowan.files.length, 36);
  });

  test("listing the shapes: the loaded ones under their folder names, the refused with why", async () => {
    const root = await shapesWithSecrets();
    const { skills, diagnostics } = await (await folderResolver(root)).list();
    assert.deepEqual(skills.map((s) => s.name), SHAPES_LOADED);
    for (const [name, reason] of Object.entries(SHAPES_REFUSED)) {
      const found = diagnostics.filter((d) => d.name === name && d.problem === "invalid");
      assert.equal(found.length, 1, name);
      assert.match(found[0].message, reason, name);
    }
    assert.equal(diagnostics.filter((d) => d.problem === "invalid").length, 3);
  });

  test("the dot-file rule: .gitignore and .env.example are files, .env, keys and .git/ never", async () => {
    const root = await shapesWithSecrets();
    const hit = await (await folderResolver(root)).resolve("dot-files");
    assert.deepEqual(hit.files.map((f) => f.path), DOT_FILES_KEPT);
    const png = await hit.readFile("assets/pixel.png");
    assert.deepEqual(png, new Uint8Array(await readFile(join(root, "dot-files/assets/pixel.png"))));
    const crlf = new TextDecoder().decode(await hit.readFile("references/windows.txt"));
    assert.equal(crlf, "first line\r\nsecond line\r\n");
    for (
      const path of [
        ".env",
        "id_rsa",
        "assets/server.pem",
        ".git/config",
        "../csv-tools/SKILL.md",
        "/etc/passwd",
        "nope.txt",
      ]
    ) {
      await assert.rejects(hit.readFile(path), (error) => {
        assert.ok(isSkillFileError(error), path);
        assert.equal(error.reason, "not-listed");
        assert.match(error.message, /Skill "dot-files" has no file/);
        return true;
      });
    }
  });

  test("files six folders deep are listed; a single-file skill has none", async () => {
    const root = await shapesWithSecrets();
    await writeFile(
      join(root, "single.md"),
      "---\nname: single\ndescription: One file. Use for tests.\n---\n",
    );
    const resolver = await folderResolver(root);
    const deep = await resolver.resolve("deep-folders");
    assert.deepEqual(deep.files.map((f) => f.path), [
      "assets/templates/reports/2026/q1/final/template.md",
      "references/schemas/v1/report.json",
    ]);
    const single = await resolver.resolve("single");
    assert.equal(single.folder, undefined);
    assert.deepEqual(single.files, []);
    assert.match(new TextDecoder().decode(await single.readFile("SKILL.md")), /^---\nname: single/);
  });

  test("a file changed since the skill was resolved is refused; resolving again reads it", async () => {
    const root = await shapesWithSecrets();
    const resolver = await folderResolver(root);
    const hit = await resolver.resolve("pdf-form");
    // Same size, other bytes: only the digest tells.
    const list = await readFile(join(root, "pdf-form/scripts/list_fields.py"), "utf8");
    await writeFile(join(root, "pdf-form/scripts/list_fields.py"), list.replace("argv", "ARGV"));
    await assert.rejects(
      hit.readFile("scripts/list_fields.py"),
      (e) => isSkillFileError(e) && e.reason === "changed" && /its digest differs/.test(e.message),
    );
    await writeFile(join(root, "pdf-form/scripts/fill.py"), "print('changed')\n");
    await assert.rejects(
      hit.readFile("scripts/fill.py"),
      (e) => isSkillFileError(e) && e.reason === "changed",
    );
    const again = await resolver.resolve("pdf-form");
    assert.equal(
      new TextDecoder().decode(await again.readFile("scripts/fill.py")),
      "print('changed')\n",
    );
    await rm(join(root, "pdf-form/references/fields.md"));
    assert.deepEqual((await resolver.resolve("pdf-form")).files.map((f) => f.path), [
      "LICENSE.txt",
      "scripts/fill.py",
      "scripts/list_fields.py",
    ]);
  });

  test("a symlink in a skill folder is left out with a warning, never followed", async () => {
    const root = await tempDir();
    await symlinkOut(root);
    const hit = await (await folderResolver(root)).resolve("symlink-out");
    assert.deepEqual(hit.files, []);
    assert.match(
      hit.diagnostics.map((d) => d.message).join("\n"),
      /notes\.txt is a symbolic link; left out/,
    );
    await assert.rejects(hit.readFile("notes.txt"), isSkillFileError);
  });

  test("README.md and CONTRIBUTING.md beside skills are not skills, even where names fold case", async () => {
    const inner = createMemoryStorage({
      initial: {
        "README.md": "# My skills\n",
        "CONTRIBUTING.md": "# How to help\n",
        "pdf.md": "---\nname: pdf\ndescription: PDFs. Use for PDFs.\n---\n",
      },
    });
    // As on macOS and Windows: readme.md finds README.md.
    const folded: Storage = {
      set: (key, value, options) => inner.set(key, value, options),
      delete: (key, options) => inner.delete(key, options),
      keys: (prefix, options) => inner.keys(prefix, options),
      get: async (key, options) => {
        const keys = await inner.keys("", options);
        const found = keys.find((k) => k.toLowerCase() === key.toLowerCase());
        return found === undefined ? undefined : await inner.get(found, options);
      },
    };
    const resolver = createResolver({
      sources: [createStorageSource({ label: "user", storage: folded })],
    });
    const { skills, diagnostics } = await resolver.list();
    assert.deepEqual(skills.map((s) => s.name), ["pdf"]);
    assert.deepEqual(diagnostics, []);
  });

  test("any storage: the other keys under the folder are its files, by the same rule", async () => {
    const storage = createMemoryStorage({
      initial: {
        "pdf/SKILL.md": "---\nname: pdf\ndescription: PDFs. Use for PDFs.\n---\n",
        "pdf/scripts/fill.py": "print(1)\n",
        "pdf/.env": "SECRET=1\n",
        "pdf/.git/config": "[core]\n",
        "pdf/assets/.env.example": "KEY=\n",
      },
    });
    const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
    const hit = await resolver.resolve("pdf");
    assert.equal(hit.folder, "pdf/");
    assert.deepEqual(hit.files.map((f) => [f.path, f.size]), [
      ["assets/.env.example", 5],
      ["scripts/fill.py", 9],
    ]);
    assert.equal(new TextDecoder().decode(await hit.readFile("scripts/fill.py")), "print(1)\n");
    // Listing reads no folder: a list of many skills costs one read each.
    const listed = (await resolver.list()).skills;
    assert.deepEqual(listed.map((s) => s.name), ["pdf"]);
  });
});
