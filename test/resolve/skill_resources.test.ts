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
