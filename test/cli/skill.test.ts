// `skillmux skill …` end to end in a temporary home.
import assert from "node:assert/strict";
import { cp, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { listSkills, resolveSkill } from "../../lib/resolve/default_sources.ts";
import { builtinSkillNames } from "../../lib/resolve/builtin_source.ts";

const BUILTINS = (await builtinSkillNames()).length;
import { cli, ROOT, sub, tempHome } from "./_helpers.ts";
import { parseSkill } from "../../lib/skill/parse.ts";
import { readLockFile } from "../../lib/install/lock.ts";
import { REAL_SKILLS, SHAPES } from "../_agent_skills.ts";

const skill = (name: string, description = `${name} for tests. Use when testing the CLI.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n## Concepts\n- a\n`;
const GOOD = [
  "---",
  "name: demo",
  "description: Sorts and indexes demo files. Use when you need to sort demo files.",
  "---",
  "## Concepts",
  "- one",
  "- two",
  "- three",
  "## Pitfalls",
  "- one",
  "- two",
  "- three",
  "## Examples",
  ...[1, 2, 3, 4, 5].flatMap((i) => [
    `### Task number ${i}`,
    `**Args:** \`sort -n ${i} in.txt\``,
    `**Explanation:** sorts with ${i}.`,
  ]),
  "",
].join("\n");

let home: Awaited<ReturnType<typeof tempHome>>;
let env: Record<string, string>;
let files: string;
before(async () => {
  home = await tempHome();
  env = home.env;
  files = join(home.dir, "files");
  await mkdir(files);
  await writeFile(
    join(files, "samtools.md"),
    skill("samtools", "My own samtools. Use when sorting."),
  );
  await writeFile(join(files, "demo.md"), GOOD);
  await writeFile(join(files, "bad.md"), "---\nname: Bad Name!\ndescription: x\n---\n");
  await writeFile(join(files, "weak.md"), skill("weak"));
});
after(() => home.close());

describe("skill list / show", () => {
  test("lists the built-ins with a count line, and --json", async () => {
    const text = await cli(["skill", "list"], env);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^NAME\s+SOURCE\s+SHADOWS\s+DESCRIPTION/);
    assert.match(text.stdout, /samtools\s+builtin\s+-\s+Reads, writes/);
    assert.match(
      text.stdout,
      new RegExp(`${BUILTINS} skills available \\(${BUILTINS} builtin\\)\n$`),
    );
    const json = await cli(["skill", "list", "--json"], env);
    const parsed = JSON.parse(json.stdout);
    assert.equal(parsed.skills.length, BUILTINS);
    assert.deepEqual(Object.keys(parsed.skills[0]).sort(), [
      "description",
      "digest",
      "location",
      "name",
      "shadows",
      "source",
      "tags",
    ]);
    assert.deepEqual(parsed.diagnostics, []);
  });

  test("show renders the winning skill with its provenance; a miss exits 1", async () => {
    const shown = await cli(["skill", "show", "bwa"], env);
    assert.equal(shown.code, 0);
    assert.match(shown.stdout, /^Source: +builtin \(builtin:skills\/bwa\.md\)/);
    assert.match(shown.stdout, /\nname: bwa\n/);
    assert.match(shown.stdout, /## Examples/);
    const json = JSON.parse((await cli(["skill", "show", "bwa", "--json"], env)).stdout);
    assert.equal(json.source, "builtin");
    assert.equal(json.skill.name, "bwa");
    const miss = await cli(["skill", "show", "nope"], env);
    assert.equal(miss.code, 1);
    assert.match(miss.stderr, /^skillmux: .*"nope"/);
    assert.equal(miss.stderr.trim().split("\n").length, 1);
    assert.equal((await cli(["skill", "show", "../etc"], env)).code, 1);
    assert.doesNotMatch(miss.stderr, /did you mean/, "nothing is close to nope");
    for (const typo of ["samtool", "smatools", "samtols"]) {
      const near = await cli(["skill", "show", typo], env);
      assert.equal(near.code, 1);
      assert.match(near.stderr, /^skillmux: Cannot find skill .*; did you mean "samtools"\?\n$/);
    }
  });
});

describe("skill add / remove", () => {
  test("add installs into the user folder, shadowing the built-in, where resolveSkill sees it", async () => {
    // A valid skill installs (lint findings are notes), saying which built-in it shadows.
    const added = await sub(["skill", "add", join(files, "samtools.md")], env);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stderr, /now shadows the built-in "samtools" skill/);
    const path = join(env.XDG_CONFIG_HOME, "skillmux", "skills", "samtools.md");
    assert.match(added.stdout, /Added "samtools" in the user skills: samtools\.md/);
    assert.equal(
      await readFile(path, "utf8"),
      skill("samtools", "My own samtools. Use when sorting."),
    );
    assert.equal((await stat(join(env.XDG_CONFIG_HOME, "skillmux"))).mode & 0o777, 0o700);
    const hit = await resolveSkill("samtools", { env });
    assert.equal(hit.source, "user");
    const listed = (await listSkills({ env })).skills.find((s) => s.name === "samtools");
    assert.deepEqual(listed?.shadows, ["builtin"]);
    const text = await cli(["skill", "list"], env);
    assert.match(text.stdout, /samtools\s+user\s+builtin\s+path \S+\s+My own samtools/);
    assert.match(
      text.stdout,
      new RegExp(`${BUILTINS} skills available \\(1 user, ${BUILTINS - 1} builtin\\)`),
    );
    // The same bytes again: unchanged. Other content under the name: refused without --force.
    const again = await cli(["skill", "add", join(files, "samtools.md")], env);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /"samtools" is unchanged/);
    const other = join(home.dir, "other");
    await mkdir(other, { recursive: true });
    await writeFile(join(other, "samtools.md"), skill("samtools", "Other notes. Use when x."));
    const clash = await cli(["skill", "add", join(other, "samtools.md")], env);
    assert.equal(clash.code, 1);
    assert.match(clash.stdout, /Refused "samtools": "samtools" is already in .*--force/);
    const forced = await cli(["skill", "add", join(other, "samtools.md"), "--force"], env);
    assert.equal(forced.code, 0);
    assert.match(forced.stdout, /Replaced "samtools"/);
    assert.equal(
      (await resolveSkill("samtools", { env })).skill.description,
      "Other notes. Use when x.",
    );
  });

  test("--community: a minimal valid skill (name, description, one Concepts bullet) installs", async () => {
    const added = await cli(["skill", "add", join(files, "weak.md"), "--community"], env);
    assert.equal(added.code, 0, added.stdout + added.stderr);
    assert.doesNotMatch(added.stderr, /shadow/, "weak is no built-in");
    assert.equal((await resolveSkill("weak", { env })).source, "community");
  });

  test("a skill that passes lint installs and shadows nothing", async () => {
    const added = await cli(["skill", "add", join(files, "demo.md")], env);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stderr, "");
    assert.equal((await cli(["skill", "remove", "demo"], env)).code, 0);
  });

  test("a display name loads under the file name; invalid or unreadable files write nothing", async () => {
    const bad = await cli(["skill", "add", join(files, "bad.md")], env);
    assert.equal(bad.code, 0);
    assert.match(
      bad.stderr,
      /"Bad Name!", which is not a skill name.*loaded under the folder name "bad"/,
    );
    assert.equal((await cli(["skill", "remove", "bad"], env)).code, 0);
    const broken = join(home.dir, "broken");
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, "nodesc.md"), "---\nname: nodesc\n---\nBody\n");
    const refused = await cli(["skill", "add", join(broken, "nodesc.md")], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /Refused "nodesc": Cannot parse skill .*"description" is missing/);
    const missing = await cli(["skill", "add", join(files, "missing.md")], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^skillmux: Cannot read .*missing\.md/);
    const { skills } = await listSkills({ env });
    assert.equal(skills.some((s) => ["bad", "nodesc", "missing"].includes(s.name)), false);
  });

  test("remove: user first, then community; built-ins and unknown names fail", async () => {
    const removed = await cli(["skill", "remove", "samtools"], env);
    assert.equal(removed.code, 0);
    assert.match(removed.stdout, /Removed "samtools" from the user skills/);
    assert.equal((await resolveSkill("samtools", { env })).source, "builtin");
    const builtin = await cli(["skill", "remove", "samtools"], env);
    assert.equal(builtin.code, 1);
    assert.match(builtin.stderr, /built in and cannot be removed/);
    const json = JSON.parse((await cli(["skill", "remove", "weak", "--json"], env)).stdout);
    assert.deepEqual(json, { name: "weak", source: "community", removed: ["weak.md"] });
    const unknown = await cli(["skill", "remove", "weak"], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No skill named "weak" is installed/);
  });
});

describe("skill lint", () => {
  test("a clean skill passes; errors name file, line and field and exit 1", async () => {
    const clean = await cli(["skill", "lint", join(files, "demo.md")], env);
    assert.equal(clean.code, 0, clean.stdout);
    assert.match(clean.stdout, /1 file: 0 errors/);
    // weak.md is an Agent Skills file: clean; held to the examples bar with --bar.
    assert.equal((await cli(["skill", "lint", join(files, "weak.md")], env)).code, 0);
    const weak = await cli(["skill", "lint", join(files, "weak.md"), "--bar"], env);
    assert.equal(weak.code, 1);
    assert.match(weak.stdout, /weak\.md:\d+: error \[examples\]: /);
    const bad = await cli(["skill", "lint", join(files, "bad.md")], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /bad\.md:2: error \[name\]: /);
  });

  test("a folder is linted file by file, with --json", async () => {
    const out = await cli(["skill", "lint", files, "--json"], env);
    assert.equal(out.code, 1);
    const parsed = JSON.parse(out.stdout);
    assert.equal(parsed.files.length, 4);
    assert.ok(parsed.errors > 0);
    for (const f of parsed.files) for (const d of f.diagnostics) assert.equal(d.source, f.file);
    assert.equal((await cli(["skill", "lint", join(files, "nope")], env)).code, 1);
  });
});

describe("published skills through the CLI", () => {
  test("lint by format: the real skills, the team folder, the docs' example and a repository root", async () => {
    const real = await cli(["skill", "lint", REAL_SKILLS, "--json"], env);
    const report = JSON.parse(real.stdout);
    assert.equal(report.files.length, 45, "README.md and LICENSE.md are not skills");
    const failing = report.files.filter((f: { diagnostics: { severity: string }[] }) =>
      f.diagnostics.some((d) => d.severity === "error")
    );
    // Two vendored skills tell the model to run scripts/generate_schematic.py, a script of
    // another skill (scientific-schematics) that their folders do not hold.
    assert.deepEqual(failing.map((f: { name: string }) => f.name), [
      "peer-review",
      "scholar-evaluation",
    ]);
    const team = await cli(["skill", "lint", join(ROOT, "examples/team-skills")], env);
    assert.equal(team.code, 0, team.stdout);
    assert.match(team.stdout, /2 files: 0 errors, 0 warnings/);
    const repo = join(home.dir, "repo");
    await mkdir(join(repo, "skills"), { recursive: true });
    for (const doc of ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]) {
      await writeFile(join(repo, doc), `# ${doc}\n`);
    }
    await cp(join(SHAPES, "pdf-form"), join(repo, "skills", "pdf-form"), { recursive: true });
    const root = await cli(["skill", "lint", repo], env);
    assert.equal(root.code, 0, root.stdout);
    assert.match(root.stdout, /✓ .*pdf-form\/SKILL\.md\n1 file: 0 errors, 0 warnings\n$/);
  });

  test("the docs' example format parses as documented, one-line Args and Explanation too", async () => {
    const docs = await readFile(join(ROOT, "docs/skills.md"), "utf8");
    const block = /```markdown\n(---\nname: samtools[\s\S]*?)```/.exec(docs)![1];
    const { skill: parsed, diagnostics } = await parseSkill(block.replaceAll("- …", "- an item"));
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(parsed.examples, [{
      task: "Sort a BAM file by coordinate",
      args: "sort -@ 4 -o sorted.bam input.bam",
      explanation: "-@ 4 adds four threads; -o names the output.",
    }]);
    const companion = /```markdown\n(### Build an index[\s\S]*?)```/.exec(docs)![1];
    const withIt = await parseSkill(
      `---\nname: hisat2\ndescription: d\n---\n## Examples\n${companion}`,
    );
    assert.deepEqual(withIt.skill.examples, [{
      task: "Build an index",
      args: "-p 8 genome.fa genome_index",
      explanation: "The companion indexer writes genome_index.1.ht2 to .8.ht2.",
      command: "hisat2-build",
    }]);
  });

  test("show lists a folder skill's files; --no-builtin leaves the built-ins out", async () => {
    const own = await tempHome();
    try {
      const added = await cli(["skill", "add", join(SHAPES, "pdf-form")], own.env);
      assert.equal(added.code, 0, added.stdout + added.stderr);
      const shown = await cli(["skill", "show", "pdf-form"], own.env);
      assert.match(shown.stdout, /Folder: +\S+\/skills\/pdf-form\n/);
      assert.match(shown.stdout, /Files: +4 \(142 B\)\n +LICENSE\.txt +29 B +sha256:/);
      assert.match(shown.stdout, /scripts\/list_fields\.py +30 B/);
      const json = JSON.parse((await cli(["skill", "show", "pdf-form", "--json"], own.env)).stdout);
      assert.deepEqual(json.files.map((f: { path: string }) => f.path), [
        "LICENSE.txt",
        "references/fields.md",
        "scripts/fill.py",
        "scripts/list_fields.py",
      ]);
      const none = JSON.parse(
        (await cli(["skill", "list", "--json", "--no-builtin"], own.env)).stdout,
      );
      assert.deepEqual(none.skills.map((s: { name: string }) => s.name), ["pdf-form"]);
      assert.equal(none.skills[0].installed.sourceType, "path");
      const env2 = { ...own.env, SKILLMUX_NO_BUILTIN: "1" };
      assert.equal((await cli(["skill", "show", "bwa"], env2)).code, 1);
      assert.equal((await cli(["skill", "show", "bwa"], own.env)).code, 0);
      const removed = await cli(["skill", "remove", "pdf-form"], own.env);
      assert.equal(removed.code, 0);
      await assert.rejects(stat(join(own.env.XDG_CONFIG_HOME, "skillmux/skills/pdf-form")));
      assert.deepEqual(await readLockFile(join(own.env.XDG_CONFIG_HOME, "skillmux/skills")), []);
    } finally {
      await own.close();
    }
  });
});

describe("usage, help and subprocesses", () => {
  test("help on every command, usage errors exit 2", async () => {
    for (
      const argv of [["help"], ["--help"], ["skill", "--help"], ["help", "mcp", "add"], [
        "serve",
        "--help",
      ]]
    ) {
      const out = await cli(argv, env);
      assert.equal(out.code, 0, argv.join(" "));
      assert.match(out.stdout, /Usage: skillmux/);
    }
    for (
      const argv of [[], ["nope"], ["skill", "nope"], ["skill", "list", "--nope"], [
        "skill",
        "show",
      ], ["skill", "show", "a", "b"]]
    ) {
      const out = await cli(argv, env);
      assert.equal(out.code, 2, argv.join(" "));
      assert.equal(out.stdout, "");
    }
  });

  test("colours only when asked and never with NO_COLOR", async () => {
    const noColor = await cli(["skill", "lint", join(files, "demo.md")], env, { color: true });
    assert.equal(noColor.stdout.includes("\x1b["), false);
    const { NO_COLOR: _, ...plain } = env;
    const colored = await cli(["skill", "lint", join(files, "demo.md")], plain, { color: true });
    assert.ok(colored.stdout.includes("\x1b[32m✓"));
  });

  test("as a subprocess: list, show, lint exit codes, usage error", async () => {
    const [list, show, lint, usage] = await Promise.all([
      sub(["skill", "list", "--json"], env),
      sub(["skill", "show", "samtools"], env),
      sub(["skill", "lint", join(files, "weak.md"), "--bar"], env),
      sub(["skill", "--bogus"], env),
    ]);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(JSON.parse(list.stdout).skills.length, BUILTINS);
    assert.equal(show.code, 0);
    assert.match(show.stdout, /Source: +builtin/);
    assert.equal(lint.code, 1);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Unknown option '--bogus'/);
  });
});
