// SkillNotFoundError (lib/resolve/errors.ts) through a real resolver: the message names the skill,
// the sources asked (or that none are configured) and every diagnostic with its source; the
// isSkillNotFoundError check goes by name, on Errors only.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createResolver,
  isSkillNotFoundError,
  SkillNotFoundError,
  type SkillSource,
} from "../../lib/mod.ts";

describe("SkillNotFoundError", () => {
  test("with no sources, the message says none are configured", async () => {
    const error = await createResolver({ sources: [] }).resolve("nope").catch((e) => e);
    assert.ok(isSkillNotFoundError(error));
    assert.equal(error.message, 'Cannot find skill "nope": no sources are configured');
    assert.deepEqual([error.skill, error.sources, error.diagnostics], ["nope", [], []]);
  });

  test("the message names the sources asked and each diagnostic with its source", async () => {
    const empty: SkillSource = {
      label: "team",
      list: () => Promise.resolve([]),
      get: () => Promise.resolve(undefined),
    };
    const failing: SkillSource = {
      label: "remote",
      list: () => Promise.resolve([]),
      get: () => Promise.reject(new Error("connection refused")),
    };
    const broken: SkillSource = {
      label: "user",
      list: () => Promise.resolve(["nope"]),
      get: () => Promise.resolve({ text: "no front matter" }),
    };
    const quiet = await createResolver({ sources: [empty] }).resolve("nope").catch((e) => e);
    assert.equal(quiet.message, 'Cannot find skill "nope": asked team');
    const loud = await createResolver({ sources: [broken, failing, empty] }).resolve("nope")
      .catch((e) => e);
    assert.ok(isSkillNotFoundError(loud));
    assert.deepEqual(loud.sources, ["user", "remote", "team"]);
    assert.match(
      loud.message,
      /^Cannot find skill "nope": asked user, remote, team; user: .*front matter.*; remote: connection refused$/,
    );
  });

  test("isSkillNotFoundError goes by name, on Errors only", () => {
    assert.equal(isSkillNotFoundError(new SkillNotFoundError("x", [], [])), true);
    const copy = Object.assign(new Error("from another copy"), { name: "SkillNotFoundError" });
    assert.equal(isSkillNotFoundError(copy), true);
    assert.equal(isSkillNotFoundError(new Error("other")), false);
    assert.equal(isSkillNotFoundError({ name: "SkillNotFoundError", message: "x" }), false);
    assert.equal(isSkillNotFoundError(undefined), false);
  });
});
