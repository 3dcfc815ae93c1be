// The resolve error family: what the resolver throws is a ResolveError with a stable `name`, a
// `code` for the reason and the `cause` it was given, met here through a real resolver over a
// skill folder on disk and the walk of a folder that holds a symlink.
import assert from "node:assert/strict";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  createDefaultSources,
  createResolver,
  ResolveError,
  type ResolveErrorCode,
  SkillFileError,
  SkillNotFoundError,
} from "../../lib/resolve/mod.ts";
import { FolderRefusedError, walkSkillFolder } from "../../lib/resolve/fs_folder.ts";
import { tempDir } from "../_agent_skills.ts";

/** `error` is a ResolveError of this name and code. */
function assertResolveError(error: unknown, name: string, code: ResolveErrorCode) {
  assert.ok(error instanceof ResolveError, String(error));
  assert.ok(error instanceof Error);
  assert.deepEqual([error.name, error.code], [name, code], error.message);
}

const SKILL = "---\nname: demo\ndescription: A demo skill.\n---\nUse notes.md.\n";

describe("the resolve error family", () => {
  test("the base keeps its code and cause; no cause is no own `cause`", () => {
    const cause = new Error("denied");
    const error = new ResolveError("env-denied", "cannot locate", { cause });
    assertResolveError(error, "ResolveError", "env-denied");
    assert.equal(error.cause, cause);
    assert.equal(Object.hasOwn(new ResolveError("not-found", "x"), "cause"), false);
  });

  test("a skill no source has is `not-found`", async () => {
    const error = await createResolver({ sources: [] }).resolve("nope").catch((e) => e);
    assert.ok(error instanceof SkillNotFoundError);
    assertResolveError(error, "SkillNotFoundError", "not-found");
  });

  test("a file the skill does not list is `not-listed`; one that changed is `changed`", async () => {
    const root = await tempDir();
    await mkdir(join(root, "demo"));
    await writeFile(join(root, "demo", "SKILL.md"), SKILL);
    await writeFile(join(root, "demo", "notes.md"), "first");
    const config = await tempDir();
    const sources = await createDefaultSources({
      userDir: root,
      communityDir: config,
      configDir: config,
      env: {},
      builtin: false,
    });
    const hit = await createResolver({ sources }).resolve("demo");
    const unlisted = await hit.readFile("../../etc/passwd").catch((e) => e);
    assert.ok(unlisted instanceof SkillFileError);
    assertResolveError(unlisted, "SkillFileError", "not-listed");
    assert.equal(unlisted.reason, "not-listed");
    await writeFile(join(root, "demo", "notes.md"), "second, longer");
    const changed = await hit.readFile("notes.md").catch((e) => e);
    assertResolveError(changed, "SkillFileError", "changed");
    assert.equal(changed.reason, "changed");
  });

  test("a folder walk refused for a symlink is `folder-refused`", async () => {
    const root = await tempDir();
    await writeFile(join(root, "SKILL.md"), SKILL);
    await symlink("/etc/hostname", join(root, "link"));
    const error = await walkSkillFolder(root, {
      maxFiles: 10,
      maxBytes: 1_000_000,
      symlinks: "refuse",
    }).catch((e) => e);
    assert.ok(error instanceof FolderRefusedError);
    assertResolveError(error, "FolderRefusedError", "folder-refused");
    assert.equal(error.reason, "symlink");
  });
});
