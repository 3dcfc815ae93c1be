// fast-check arbitraries of valid skills, shared by the property tests.
import fc from "fast-check";
import type { Skill, SkillExample } from "../../lib/skill/mod.ts";

/** Valid skill names: 1–64 chars of [a-z0-9] segments joined by single hyphens. */
export const skillName: fc.Arbitrary<string> = fc
  .array(fc.stringMatching(/^[a-z0-9]{1,12}$/), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join("-"))
  .filter((name) => name.length <= 64);

/** Characters that stress YAML and Markdown quoting, plus any grapheme. */
const tricky: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ":",
    ": ",
    " #",
    "#",
    "'",
    '"',
    "-",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&",
    "*",
    "!",
    "|",
    ">",
    "<",
    "%",
    "@",
    "`",
    "\\",
    "?",
    " ",
    "\t",
    "yes",
    "null",
    "1.10",
    "é",
    "日本",
    "😀",
    "\u00a0",
    "\u2028",
  ),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 }),
);

/** One line of text, trimmed, non-empty, without CR or LF. */
export const line: fc.Arbitrary<string> = fc
  .string({ unit: tricky, minLength: 1, maxLength: 40 })
  .map((s) => s.replace(/[\r\n]/g, " ").trim())
  .filter((s) => s !== "");

/** Text that may span lines (descriptions). */
const text: fc.Arbitrary<string> = fc
  .string({ unit: fc.oneof(tricky, fc.constant("\n")), minLength: 1, maxLength: 120 })
  .filter((s) => s.trim() !== "");

/** Version strings YAML would otherwise retype. */
export const version: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "1.10",
    "2.0",
    "1",
    "0.10.0-rc1",
    "v1.2",
    "yes",
    "null",
    "1e3",
    "0x10",
    "2024-01-01",
  ),
  fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30)).map(([a, b, c]) => `${a}.${b}.${c}`),
);

/** Programs as typed at a shell: `STAR`, `java -jar picard.jar`, `/opt/bin/x_y-1.2`, `1.10`. */
export const program: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("STAR", "featureCounts", "java -jar picard.jar", "hisat2-build", "1.10", "yes"),
  fc.array(fc.stringMatching(/^[A-Za-z0-9._+/=:@%,][A-Za-z0-9._+/=:@%,-]{0,10}$/), {
    minLength: 1,
    maxLength: 4,
  }).map((words) => words.join(" ")),
);

const example: fc.Arbitrary<SkillExample> = fc.record({
  task: line,
  args: fc.oneof(line, fc.constantFrom("`x`", "a ``b`` c", "`", "sort -o out.bam in.bam")),
  explanation: fc.oneof(line, fc.constant("")),
  command: program,
}, { noNullPrototype: true, requiredKeys: ["task", "args", "explanation"] });

const metaValue: fc.Arbitrary<unknown> = fc.oneof(
  line,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(line, { maxLength: 3 }),
  fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), line, { maxKeys: 3, noNullPrototype: true }),
);

/** A valid skill as renderSkill expects it, with an empty body (sections are generated). */
export const skill: fc.Arbitrary<Skill> = fc
  .record({
    name: skillName,
    description: text,
    category: fc.option(line, { nil: undefined }),
    tags: fc.array(line, { maxLength: 5 }),
    author: fc.option(line, { nil: undefined }),
    sourceUrl: fc.option(fc.webUrl(), { nil: undefined }),
    command: fc.option(program, { nil: undefined }),
    checkedVersion: fc.option(version, { nil: undefined }),
    minVersion: fc.option(version, { nil: undefined }),
    maxVersion: fc.option(version, { nil: undefined }),
    license: fc.option(line, { nil: undefined }),
    compatibility: fc.option(line, { nil: undefined }),
    metadata: fc.dictionary(
      fc.stringMatching(/^[a-z][a-z0-9_.-]{0,10}$/),
      fc.oneof(line, version),
      {
        maxKeys: 4,
        noNullPrototype: true,
      },
    ),
    allowedTools: fc.oneof(
      fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z0-9():*]{0,10}$/), { maxLength: 4 }),
      fc.array(line, { maxLength: 3 }),
    ),
    concepts: fc.array(line, { maxLength: 5 }),
    pitfalls: fc.array(line, { maxLength: 5 }),
    examples: fc.array(example, { maxLength: 6 }),
    meta: fc.dictionary(fc.stringMatching(/^x-[a-z]{1,8}$/), metaValue, {
      maxKeys: 3,
      noNullPrototype: true,
    }),
  })
  .map((fields) => {
    const out: Skill = { ...fields, format: "markdown", body: "", digest: "" };
    for (const key of Object.keys(out) as (keyof Skill)[]) {
      if (out[key] === undefined) delete out[key];
    }
    return out;
  });
