// The built-in skills: the generated module is current, and every skill meets the quality bar.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { GENERATED_PATH, renderBuiltinModule } from "../scripts/gen_builtin.ts";
import { BUILTIN_SKILLS } from "../lib/resolve/_builtin_skills.ts";
import { lintSkill, parseSkill } from "../lib/skill/mod.ts";

test("lib/resolve/_builtin_skills.ts is generated from skills/*.md (run `npm run gen`)", async () => {
  assert.equal(await readFile(GENERATED_PATH, "utf8"), await renderBuiltinModule());
});

test("at least 120 built-in skills ship (issues 12 and 26)", () => {
  assert.ok(Object.keys(BUILTIN_SKILLS).length >= 120, Object.keys(BUILTIN_SKILLS).join(", "));
});

test("README.md states the number of built-in skills that ship", async () => {
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const stated = /The (\d+) built-in skills cover/.exec(readme)?.[1];
  assert.equal(
    Number(stated),
    Object.keys(BUILTIN_SKILLS).length,
    'README.md: "The N built-in skills cover"',
  );
});

for (const [name, text] of Object.entries(BUILTIN_SKILLS)) {
  test(`built-in "${name}" parses strictly and passes lintSkill`, async () => {
    const { skill, diagnostics } = await parseSkill(text, {
      name,
      strict: true,
      source: `skills/${name}.md`,
    });
    assert.deepEqual(diagnostics, []);
    assert.equal(skill.name, name);
    assert.deepEqual(lintSkill(skill), []);
    assert.match(
      skill.checkedVersion ?? "",
      /\S/,
      "checked_version says which version was checked",
    );
    assert.ok(
      skill.examples.length >= 5 && skill.concepts.length >= 3 && skill.pitfalls.length >= 3,
    );
    for (const example of skill.examples) {
      assert.ok(
        !example.args.startsWith(`${name} `),
        `${name}: args "${example.args}" repeat the tool name`,
      );
    }
  });
}
