import assert from "node:assert/strict";
import { test } from "node:test";
import {
  hasSkillTemplate,
  skillNameOf,
  skillResources,
} from "../../lib/resolve/skill_resources.ts";

test("every resource shape that names a skill, and the ones that do not", () => {
  const table: Array<[{ uri: string; name: string; mimeType?: string }, string | undefined]> = [
    [{ uri: "skill://samtools", name: "anything" }, "samtools"],
    [{ uri: "skill://samtools/", name: "x" }, "samtools"],
    [{ uri: "skill://git-workflow/SKILL.md", name: "x" }, "git-workflow"],
    [{ uri: "skill://acme/billing/refunds/SKILL.md", name: "x" }, "refunds"],
    [{ uri: "file:///srv/skills/bwa/SKILL.md", name: "x" }, "bwa"],
    [{ uri: "docs://notes/star", name: "star", mimeType: "text/markdown" }, "star"],
    [{ uri: "docs://notes/Star", name: "STAR", mimeType: "text/markdown; charset=utf-8" }, "star"],
    [{ uri: "docs://notes/x", name: "not a name", mimeType: "text/markdown" }, undefined],
    [{ uri: "docs://notes/x", name: "bwa", mimeType: "text/plain" }, undefined],
    [{ uri: "skill://../etc/passwd", name: "x" }, undefined],
    [{ uri: "skill://a%2Fb", name: "x" }, undefined],
    [{ uri: "skill://name/other.md", name: "x" }, undefined],
  ];
  for (const [resource, expected] of table) {
    assert.equal(skillNameOf(resource), expected, resource.uri);
  }
});

test("skillResources keeps the first resource of each name with its description", () => {
  assert.deepEqual(
    skillResources([
      { uri: "skill://bwa", name: "bwa", description: "first" },
      { uri: "skill://bwa/SKILL.md", name: "bwa", description: "second" },
      { uri: "demo://x", name: "x" },
    ]),
    [{ name: "bwa", uri: "skill://bwa", description: "first" }],
  );
});

test("skill templates are recognised", () => {
  assert.equal(hasSkillTemplate([{ uriTemplate: "skill://{name}", name: "s" }]), true);
  assert.equal(hasSkillTemplate([{ uriTemplate: "skill://{name}/SKILL.md", name: "s" }]), true);
  assert.equal(hasSkillTemplate([{ uriTemplate: "demo://{id}", name: "d" }]), false);
});

// Each anchor, character class, case flag and decoding step of the recognisers above (survivors
// of the second `resolve` run), one row each.
test("the recognisers' edges: anchors, case, percent-decoding, media type prefix", () => {
  const table: Array<[{ uri: string; name: string; mimeType?: string }, string | undefined]> = [
    [{ uri: "xskill://samtools", name: "x" }, undefined],
    [{ uri: "skill://samtools?x=1", name: "x" }, undefined],
    [{ uri: "skill://samtools#top", name: "x" }, undefined],
    [{ uri: "skill://samtools//", name: "x" }, undefined],
    [{ uri: "SKILL://Samtools", name: "x" }, "samtools"],
    [{ uri: "skill://sam%74ools", name: "x" }, "samtools"],
    [{ uri: "file:///x/bwa/skill.md", name: "x" }, "bwa"],
    [{ uri: "file:///x/bwa/SKILL.md.bak", name: "x" }, undefined],
    [{ uri: "file:///x/bwa?v=1/SKILL.md", name: "x" }, undefined],
    [{ uri: "file:///x/bwaXSKILL.md", name: "x" }, undefined],
    [{ uri: "docs://notes/x", name: "star", mimeType: "TEXT/MARKDOWN" }, "star"],
    [{ uri: "docs://notes/x", name: "star", mimeType: "application/text/markdown" }, undefined],
    [{ uri: "docs://notes/x", name: "star" }, undefined],
  ];
  for (const [resource, expected] of table) {
    assert.equal(skillNameOf(resource), expected, resource.uri);
  }
  const [entry] = skillResources([
    { uri: "skill://bwa", name: "bwa", description: 7 as unknown as string },
  ]);
  assert.deepEqual(entry, { name: "bwa", uri: "skill://bwa" });
  const templates: Array<[string, boolean]> = [
    ["SKILL://{name}", true],
    ["skill://{name}/skill.md", true],
    ["xskill://{name}", false],
    ["skill://{name}/other", false],
    ["skill://{name}/SKILL.mdx", false],
    ["skill://{}", false],
    ["skill://{a}{b}", false],
  ];
  for (const [uriTemplate, expected] of templates) {
    assert.equal(hasSkillTemplate([{ uriTemplate, name: "t" }]), expected, uriTemplate);
  }
  assert.equal(hasSkillTemplate([]), false);
  assert.equal(
    hasSkillTemplate([{ uriTemplate: "demo://{id}", name: "d" }, {
      uriTemplate: "skill://{name}",
      name: "s",
    }]),
    true,
    "any template of the list",
  );
});
