import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseSkill, renderSkill, renderSkillSections, type Skill } from "../../lib/skill/mod.ts";
import { skill as skillArbitrary } from "./_arbitraries.ts";
import { fixture, withoutDigest } from "./_helpers.ts";

const BASE: Skill = {
  name: "demo",
  description: "Demo skill. Use when testing.",
  format: "markdown",
  tags: [],
  metadata: {},
  allowedTools: [],
  concepts: [],
  pitfalls: [],
  examples: [],
  body: "",
  meta: {},
  digest: "",
};

/** Time-boxed: runs as many cases as fit in the time limit. */
const budget = { numRuns: 1_000_000, interruptAfterTimeLimit: 3000 };

describe("renderSkill", () => {
  test("writes known fields in canonical order, then meta, omitting empty ones", () => {
    const text = renderSkill({
      ...BASE,
      allowedTools: ["Read", "Bash(git:*)"],
      metadata: { owner: "me" },
      compatibility: "Node 20",
      license: "MIT",
      maxVersion: "2.0",
      minVersion: "1.10",
      sourceUrl: "https://example.com/doc",
      author: "Ann",
      tags: ["a", "b c"],
      category: "misc",
      meta: { "x-extra": 1, name: "ignored: a known key" },
      body: "Body\n",
    });
    assert.equal(
      text,
      [
        "---",
        "name: demo",
        "description: Demo skill. Use when testing.",
        "category: misc",
        "tags: [a, b c]",
        "author: Ann",
        "source_url: https://example.com/doc",
        'min_version: "1.10"',
        'max_version: "2.0"',
        "license: MIT",
        "compatibility: Node 20",
        "metadata:",
        "  owner: me",
        "allowed-tools: Read Bash(git:*)",
        "x-extra: 1",
        "---",
        "Body",
        "",
      ].join("\n"),
    );
  });

  test("a minimal skill, and strings that look like other types are quoted", () => {
    assert.equal(
      renderSkill(BASE),
      "---\nname: demo\ndescription: Demo skill. Use when testing.\n---\n",
    );
    const text = renderSkill({
      ...BASE,
      name: "123",
      category: "yes",
      author: "null",
      tags: ["on", "1_000", "2024-01-01", "#x"],
    });
    assert.match(text, /^name: "123"$/m);
    assert.match(text, /^category: "yes"$/m);
    assert.match(text, /^author: "null"$/m);
    assert.match(text, /^tags: \["on", "1_000", "2024-01-01", "#x"\]$/m);
  });

  test("allowed-tools: one spaced string when it reads back the same, else a list", async () => {
    // A space inside parentheses belongs to the entry: the string form reads back whole.
    const text = renderSkill({ ...BASE, allowedTools: ["Bash(git log:*)", "Read"] });
    assert.match(text, /^allowed-tools: Bash\(git log:\*\) Read$/m);
    assert.deepEqual((await parseSkill(text)).skill.allowedTools, ["Bash(git log:*)", "Read"]);
    const odd = renderSkill({ ...BASE, allowedTools: ["two words", "a,b"] });
    assert.match(odd, /^allowed-tools: \[two words, "a,b"\]$/m);
    assert.deepEqual((await parseSkill(odd)).skill.allowedTools, ["two words", "a,b"]);
  });

  test("a TOML skill becomes a Markdown skill with generated sections", async () => {
    const { skill } = await parseSkill(await fixture("bcftools.toml"));
    const text = renderSkill(skill);
    assert.ok(text.endsWith(renderSkillSections(skill)));
    const { skill: md } = await parseSkill(text);
    assert.equal(md.format, "markdown");
    assert.equal(md.body, renderSkillSections(skill));
    assert.deepEqual(
      { ...withoutDigest(md), format: "toml", body: "" },
      withoutDigest(skill),
    );
  });

  test("renderSkillSections: format, empty sections left out, backticks kept", async () => {
    assert.equal(renderSkillSections(BASE), "");
    const sections = renderSkillSections({
      ...BASE,
      pitfalls: ["one", "two\nlines"],
      examples: [
        { task: "Tick", args: "echo `date`", explanation: "" },
        { task: "Edge", args: "`x", explanation: "why" },
      ],
    });
    assert.equal(
      sections,
      "## Pitfalls\n\n- one\n- two lines\n\n## Examples\n\n" +
        "### Tick\n**Args:** `` echo `date` ``\n**Explanation:**\n\n" +
        "### Edge\n**Args:** `` `x ``\n**Explanation:** why\n",
    );
    const { skill } = await parseSkill(renderSkill({ ...BASE, body: sections }));
    assert.deepEqual(skill.examples.map((e) => e.args), ["echo `date`", "`x"]);
  });

  test("the fixtures survive parse → render → parse", async () => {
    for (const path of ["pdf-tools/SKILL.md", "samtools.md"]) {
      const { skill } = await parseSkill(await fixture(path));
      const again = await parseSkill(renderSkill(skill));
      assert.deepEqual(withoutDigest(again.skill), withoutDigest(skill));
    }
  });

  test("keys such as __proto__ in meta and metadata survive a round trip", async () => {
    const text = "---\nname: demo\ndescription: d\n__proto__: {polluted: 1}\n" +
      "metadata:\n  __proto__: x\n---\n";
    const { skill } = await parseSkill(text);
    const again = await parseSkill(renderSkill(skill));
    assert.deepEqual(withoutDigest(again.skill), withoutDigest(skill));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("property: parse(render(s)) gives s back, and rendering again is stable", async () => {
    await fc.assert(
      fc.asyncProperty(skillArbitrary, async (generated) => {
        const parsed = await parseSkill(renderSkill(generated));
        const unknownKeys = Object.keys(generated.meta).length;
        assert.equal(parsed.diagnostics.length, unknownKeys, "only the meta keys warn");
        assert.deepEqual(withoutDigest(parsed.skill), {
          ...withoutDigest(generated),
          allowedTools: generated.allowedTools.map((tool) => tool.trim()),
          body: renderSkillSections(generated),
        });
        const again = await parseSkill(renderSkill(parsed.skill));
        assert.deepEqual(withoutDigest(again.skill), withoutDigest(parsed.skill));
      }),
      budget,
    );
  });
});
