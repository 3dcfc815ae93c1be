// createBuiltinSource: by default the package's JSON table, loaded by URL; or the table a host
// passes (BUILTIN_SKILLS from ./builtin-skills, or a loader), for bundles that do not ship it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createBuiltinSource, createResolver } from "../../lib/mod.ts";
import { builtinSkillNames } from "../../lib/resolve/mod.ts";
import { BUILTIN_SKILLS } from "../../lib/resolve/builtin_skills.ts";

test("the default built-in source serves the package's table", async () => {
  const names = await builtinSkillNames();
  assert.deepEqual(names, Object.keys(BUILTIN_SKILLS).sort());
  const hit = await createResolver({ sources: [createBuiltinSource()] }).resolve("samtools");
  assert.equal(hit.source, "builtin");
});

const call = { signal: new AbortController().signal };

test("a passed table or loader is served instead", async () => {
  const table = {
    "my-tool": BUILTIN_SKILLS["samtools"].replace("name: samtools", "name: my-tool"),
  };
  for (const skills of [table, () => Promise.resolve(table)]) {
    const source = createBuiltinSource({ skills });
    assert.deepEqual(await source.list(call), ["my-tool"]);
    assert.equal(await source.peek!("samtools", call), false);
    assert.equal((await source.get("my-tool", call))?.location, "builtin:skills/my-tool.md");
  }
});

test("a loader that fails is asked again on the next lookup", async () => {
  let calls = 0;
  const source = createBuiltinSource({
    skills: () => (++calls === 1 ? Promise.reject(new Error("offline")) : Promise.resolve({})),
  });
  await assert.rejects(source.get("x", call), /offline/);
  assert.equal(await source.get("x", call), undefined);
  assert.equal(calls, 2);
});
