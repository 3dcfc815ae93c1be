// addSkills: a skill file, a skill folder (whole) or a collection from a path, one verdict per
// skill; a hostile folder (a symlink out, 10,000 files, 100 MB) is refused and writes nothing.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { addSkills, readLockFile } from "../../lib/install/mod.ts";
import { createDefaultSources, createResolver } from "../../lib/mod.ts";
import {
  bigFile,
  DOT_FILES_KEPT,
  manyFiles,
  REAL_SKILLS,
  SHAPES_LOADED,
  SHAPES_REFUSED,
  shapesWithSecrets,
  skillFolders,
  symlinkOut,
  tempDir,
} from "../_agent_skills.ts";

const hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Every file under `dir`, relative, sorted. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const parent = (entry as { parentPath?: string; path?: string }).parentPath ??
        (entry as { path?: string }).path!;
      out.push(join(parent, entry.name).slice(dir.length + 1));
    }
  }
  return out.sort();
}

describe("addSkills", () => {
  test("the 45 real skills install whole, byte for byte, with per-file digests in the lock", async () => {
    const into = await tempDir();
    const result = await addSkills(REAL_SKILLS, { into });
    assert.equal(result.kind, "collection");
    assert.equal(result.skills.length, 45);
    assert.deepEqual(result.skills.filter((s) => s.action !== "install"), []);
    const names = await skillFolders(REAL_SKILLS);
    assert.deepEqual(result.skills.map((s) => s.name), names);
    const lock = await readLockFile(into);
    for (const name of names) {
      const source = await tree(join(REAL_SKILLS, name));
      assert.deepEqual(await tree(join(into, name)), source, name);
      const entry = lock.find((e) => e.name === name)!;
      assert.equal(entry.sourceType, "path");
      assert.equal(entry.skillPath, name);
      for (const file of source) {
        const bytes = new Uint8Array(await readFile(join(REAL_SKILLS, name, file)));
        assert.deepEqual(new Uint8Array(await readFile(join(into, name, file))), bytes);
        if (file !== "SKILL.md") assert.equal(entry.files?.[file], hex(bytes), `${name}/${file}`);
        else assert.equal(entry.sha256, hex(bytes));
      }
    }
    // The resolver sees what was installed, with the same files.
    const config = await tempDir();
    const resolver = createResolver({
      sources: await createDefaultSources({
        userDir: into,
        communityDir: config,
        configDir: config,
        builtin: false,
        env: {},
      }),
    });
    const hit = await resolver.resolve("markdown-mermaid-writing");
    assert.equal(hit.files.length, 36);
    // Adding again changes nothing.
    const again = await addSkills(REAL_SKILLS, { into });
    assert.deepEqual(new Set(again.skills.map((s) => s.action)), new Set(["unchanged"]));
  });

  test("a collection of shapes: one verdict per skill, the refused write nothing", async () => {
    const into = await tempDir();
    const result = await addSkills(await shapesWithSecrets(), { into });
    const loaded = result.skills.filter((s) => s.action === "install").map((s) => s.name);
    assert.deepEqual(loaded, SHAPES_LOADED);
    for (const [name, reason] of Object.entries(SHAPES_REFUSED)) {
      const verdict = result.skills.find((s) => s.name === name)!;
      assert.equal(verdict.action, "refused", name);
      assert.match(verdict.reason!, reason, name);
    }
    assert.deepEqual((await readdir(into)).sort(), [...SHAPES_LOADED, "skillmux-lock.json"].sort());
    const ahrefs = result.skills.find((s) => s.name === "ahrefs-automation")!;
    assert.match(ahrefs.diagnostics[0]!.message, /"Ahrefs Automation"/);
    assert.match(ahrefs.lint[0]!.message, /must equal the folder name/);
    // The dot-file rule: secrets and .git/ stay behind and are named.
    const dot = result.skills.find((s) => s.name === "dot-files")!;
    assert.deepEqual(await tree(join(into, "dot-files")), ["SKILL.md", ...DOT_FILES_KEPT].sort());
    assert.deepEqual(dot.excluded.map((e) => e.path).sort(), [
      ".env",
      ".git/",
      "assets/server.pem",
      "id_rsa",
    ]);
    const png = await readFile(join(into, "dot-files/assets/pixel.png"));
    assert.equal(png[0], 0x89);
    assert.equal(
      await readFile(join(into, "dot-files/references/windows.txt"), "utf8"),
      "first line\r\nsecond line\r\n",
    );
  });

  test("hostile folders are refused whole and nothing of them is written", async () => {
    const root = await tempDir();
    await symlinkOut(root);
    await manyFiles(root);
    await bigFile(root);
    const traversal = join(root, "dot-dot");
    await mkdir(join(traversal, "refs"), { recursive: true });
    await writeFile(
      join(traversal, "SKILL.md"),
      "---\nname: dot-dot\ndescription: Climbs. Use for tests.\n---\n",
    );
    await symlink("../../outside-secret.txt", join(traversal, "refs", "up.txt"));
    const into = await tempDir();
    const result = await addSkills(root, { into });
    const reasons = Object.fromEntries(
      result.skills.map((s) => [s.name, `${s.action}: ${s.reason}`]),
    );
    assert.match(reasons["symlink-out"], /^refused: .*notes\.txt is a symbolic link/);
    assert.match(reasons["dot-dot"], /^refused: .*refs\/up\.txt is a symbolic link/);
    assert.match(reasons["many-files"], /^refused: .*more than 1000 files/);
    assert.match(reasons["big-file"], /^refused: .*more than 52428800 bytes/);
    assert.deepEqual(await readdir(into), []);
    // The caps are options: a raised cap lets the many small files in.
    const roomy = await addSkills(join(root, "many-files"), { into, maxFiles: 20_000 });
    assert.equal(roomy.skills[0].action, "install");
    assert.equal(roomy.skills[0].files, 10_000);
    const tight = await addSkills(join(REAL_SKILLS, "pyzotero"), { into, maxBytes: 10_000 });
    assert.match(tight.skills[0].reason!, /more than 10000 bytes/);
  });

  test("--skill takes one skill of a collection; a name it lacks is refused; dryRun writes nothing", async () => {
    const into = await tempDir();
    const dry = await addSkills(REAL_SKILLS, { into, only: ["pysam", "nope"], dryRun: true });
    assert.deepEqual(dry.skills.map((s) => [s.name, s.action]), [["pysam", "install"], [
      "nope",
      "refused",
    ]]);
    assert.deepEqual(await readdir(into), []);
    const one = await addSkills(REAL_SKILLS, { into, only: ["pysam"] });
    assert.deepEqual(one.skills.map((s) => s.action), ["install"]);
    assert.deepEqual(await readdir(into), ["pysam", "skillmux-lock.json"]);
  });
});
