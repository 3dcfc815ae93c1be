// A JSR user's script, from a folder outside the repository: it imports "@skillmux/core" (and a
// subpath) by name through an import map, and runs with only --allow-read --allow-env, then with
// fewer permissions, where the sources it may not read are skipped with a diagnostic.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createDenoProject, denoBinary, runDeno } from "./_deno_project.ts";
import { ONCE_UNDER_DENO } from "./_once.ts";

const SCRIPT = `import { closeSkillResolvers, resolveSkill } from "@skillmux/core";
import { createFsStorage } from "@skillmux/core/fs";

for (const name of Deno.args) {
  const hit = await resolveSkill(name);
  console.log(\`\${hit.skill.name} from \${hit.source}: \${hit.skill.description}\`);
  for (const d of hit.diagnostics) console.log(\`skipped \${d.source}: \${d.message}\`);
}
console.log("fs entry:", typeof createFsStorage);
await closeSkillResolvers();
`;

const DEMO =
  "---\nname: demo\ndescription: The user's demo skill. Use when testing.\n---\n# Demo\n";

let dir: string;
let home: string;

const skip = denoBinary() === undefined
  ? "no deno binary (npm install puts one in node_modules)"
  : ONCE_UNDER_DENO;

describe("a JSR user's Deno script outside the repository", { skip }, () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillmux-jsr-user-"));
    home = join(dir, "home");
    await mkdir(join(home, ".config", "skillmux", "skills"), { recursive: true });
    await writeFile(join(home, ".config", "skillmux", "skills", "demo.md"), DEMO);
    await createDenoProject(dir);
    await writeFile(join(dir, "script.ts"), SCRIPT);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const run = (flags: string[], ...names: string[]) =>
    runDeno(["run", "--no-prompt", ...flags, "script.ts", ...names], {
      cwd: dir,
      env: { HOME: home },
    });

  test("--allow-read --allow-env: the user's skill and a built-in, nothing skipped", async () => {
    const { code, stdout, stderr } = await run(["--allow-read", "--allow-env"], "demo", "samtools");
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split("\n");
    assert.equal(lines[0], "demo from user: The user's demo skill. Use when testing.");
    assert.match(lines[1], /^samtools from builtin: .*SAM\/BAM\/CRAM/);
    assert.equal(lines[2], "fs entry: function");
    assert.equal(lines.length, 3, stdout);
  });

  test("--allow-env only: the folders are skipped, each with the flag to add", async () => {
    const { code, stdout, stderr } = await run(["--allow-env"], "samtools");
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split("\n");
    assert.match(lines[0], /^samtools from builtin: /);
    assert.deepEqual(lines.slice(1, 4).map((l) => l.split(":")[0]), [
      "skipped user",
      "skipped community",
      "skipped mcp",
    ]);
    for (const line of lines.slice(1, 4)) assert.match(line, /--allow-read/);
    assert.match(lines[1], new RegExp(`${home}/\\.config/skillmux/skills`));
  });

  test("no flag at all: the built-ins still answer, the rest say --allow-env", async () => {
    const { code, stdout, stderr } = await run([], "samtools");
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split("\n");
    assert.match(lines[0], /^samtools from builtin: /);
    assert.equal(
      lines[1],
      "skipped user: Cannot locate the user skills folder: reading the environment variable " +
        "SKILLMUX_USER_SKILLS was denied; run Deno with --allow-env (or pass the userDir option)",
    );
    assert.equal(lines.filter((l) => l.startsWith("skipped ")).length, 3);
  });
});
