import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  exampleCommandLine,
  isSkillParseError,
  parseSkill,
  renderSkill,
} from "../../lib/skill/mod.ts";
import { skill as skillArbitrary } from "./_arbitraries.ts";
import { withoutDigest } from "./_helpers.ts";

const budget = { numRuns: 1_000_000, interruptAfterTimeLimit: 2500 };

/** Pieces that steer random text into the interesting parts of the parsers. */
const known = fc.constantFrom(
  "---\n",
  "---js\n",
  "...\n",
  "\r\n",
  "\ufeff",
  "name: demo\n",
  "name: ../x\n",
  "name: 1.10\n",
  "description: d. Use when x.\n",
  "description:\n",
  "tags: [a, b\n",
  "tags:\n  - a\n  - [b]\n",
  "tags: a, b\n",
  "metadata:\n  k: [1]\n",
  "metadata:\n  k: 1.0\n",
  "allowed-tools: Read Bash(x:*)\n",
  "__proto__: {polluted: 1}\n",
  "constructor: {prototype: {polluted: 1}}\n",
  "a: &a [1]\nb: *a\n",
  "x: !!js/function x\n",
  "x: !custom 1\n",
  "? [a]\n: b\n",
  "[meta]\n",
  'name = "demo"\n',
  'description = "d"\n',
  "min_version = 1.10\n",
  "[[examples]]\n",
  'task = "t"\nargs = "a"\n',
  "[context]\nconcepts = [1]\n",
  "## Examples\n### t\n**Args:** `a`\n",
  "**Command:** `hisat2-build`\n",
  "**Command:** `a; b`\n",
  "command: java -jar picard.jar\n",
  "command: [x]\n",
  "checked_version: 1.10\n",
  'command = "STAR"\n',
  "**Explanation:** e\n",
  "## Concepts\n- c\n  more\n",
  "## Notes\n",
  "```\n",
);
const piece = fc.oneof(
  { arbitrary: known, weight: 6 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 12 }), weight: 1 },
);
const pieces = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(""));
const anyText = fc.oneof(
  fc.string({ unit: "binary" }),
  pieces,
  fc.tuple(pieces, pieces).map(([front, body]) => `---\n${front}---\n${body}`),
  fc.tuple(pieces).map(([text]) => `[meta]\n${text}`),
  // A valid skill with a piece spliced in at a random line.
  fc.tuple(skillArbitrary, fc.nat(), piece).map(([skill, at, extra]) => {
    const lines = renderSkill(skill).split("\n");
    lines.splice(at % (lines.length + 1), 0, extra);
    return lines.join("\n");
  }),
);

describe("parser properties", () => {
  test("any input either parses or throws a SkillParseError", async () => {
    await fc.assert(
      fc.asyncProperty(anyText, fc.boolean(), async (text, strict) => {
        try {
          const { skill } = await parseSkill(text, { strict });
          assert.match(skill.digest, /^sha256:[0-9a-f]{64}$/);
        } catch (error) {
          assert.ok(isSkillParseError(error), `not a SkillParseError: ${error}`);
          assert.ok(error.message.startsWith("Cannot parse skill"));
        }
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
      }),
      budget,
    );
  });

  test("CRLF, CR and a BOM parse exactly like LF", async () => {
    await fc.assert(
      fc.asyncProperty(
        skillArbitrary,
        fc.constantFrom("\r\n", "\r", "\n"),
        fc.boolean(),
        async (skill, newline, bom) => {
          const lf = renderSkill(skill);
          const other = `${bom ? "\ufeff" : ""}${lf.replaceAll("\n", newline)}`;
          const a = await parseSkill(lf);
          const b = await parseSkill(other);
          assert.deepEqual(withoutDigest(b.skill), withoutDigest(a.skill));
          assert.deepEqual(b.diagnostics, a.diagnostics);
          assert.equal(a.skill.digest === b.skill.digest, lf === other);
        },
      ),
      budget,
    );
  });

  test("showCommands: every example names its program and the command lines survive", async () => {
    await fc.assert(
      fc.asyncProperty(skillArbitrary, fc.boolean(), async (skill, fromBody) => {
        const source = fromBody ? (await parseSkill(renderSkill(skill))).skill : skill;
        const text = renderSkill(source, { showCommands: true });
        const { skill: back } = await parseSkill(text);
        assert.deepEqual(
          back.examples.map((e) => exampleCommandLine(back, e)),
          skill.examples.map((e) => exampleCommandLine(skill, e)),
        );
        assert.ok(back.examples.every((e) => e.command !== undefined));
        assert.equal(back.command, skill.command);
        assert.equal(back.checkedVersion, skill.checkedVersion);
      }),
      budget,
    );
  });
});
