// InstallError and isInstallError: an error carries the context it was given, and no `cause`
// when given none (an own `cause: undefined` would show in util.inspect and deepEqual), and
// isInstallError checks both that it is an Error and its name. Through the public "./install"
// entry.
import assert from "node:assert/strict";
import { test } from "node:test";
import { InstallError, isInstallError } from "../../lib/install/mod.ts";

test("an InstallError has only the context it was given", () => {
  const bare = new InstallError("not-found", "no such skill");
  assert.deepEqual([bare.skill, bare.url, bare.status], [undefined, undefined, undefined]);
  assert.equal(Object.hasOwn(bare, "cause"), false);
  assert.deepEqual([bare.name, bare.code, bare.message], [
    "InstallError",
    "not-found",
    "no such skill",
  ]);

  const cause = new Error("underneath");
  const full = new InstallError("http", "m", {
    skill: "x",
    url: "https://r/i",
    status: 503,
    cause,
  });
  assert.deepEqual(
    [full.skill, full.url, full.status, full.cause],
    ["x", "https://r/i", 503, cause],
  );
});

test("isInstallError needs an Error named InstallError", () => {
  assert.equal(isInstallError(new InstallError("config", "m")), true);
  const renamed = Object.assign(new Error("m"), { name: "InstallError" });
  assert.equal(isInstallError(renamed), true, "checked by name, across copies of the module");
  assert.equal(isInstallError(new Error("m")), false);
  assert.equal(isInstallError({ name: "InstallError", message: "m" }), false);
  assert.equal(isInstallError(undefined), false);
});
