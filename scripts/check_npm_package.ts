// Use the compiled npm package (dist/, through package.json "exports") the way a Node
// user would: type-check a consumer against its .d.ts files, then import it and check
// the zero-config resolver and the built-ins work from it.
//
//   npm run build && node --import tsx scripts/check_npm_package.ts

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";

const root = resolve(import.meta.dirname ?? ".", "..");
const home = await mkdtemp(join(tmpdir(), "skillmux-npm-"));
try {
  // 1. A TypeScript consumer (NodeNext, strict, no skipLibCheck) type-checks against dist/.
  const consumer = join(home, "consumer");
  await mkdir(join(consumer, "node_modules", "@types"), { recursive: true });
  await mkdir(join(consumer, "node_modules", "@skillmux"), { recursive: true });
  await symlink(root, join(consumer, "node_modules", "@skillmux", "core"));
  await symlink(
    join(root, "node_modules", "@types", "node"),
    join(consumer, "node_modules", "@types", "node"),
  );
  await writeFile(join(consumer, "package.json"), '{ "type": "module", "private": true }');
  await writeFile(
    join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        lib: ["ES2023", "DOM"],
        types: ["node"],
      },
    }),
  );
  await writeFile(
    join(consumer, "index.ts"),
    [
      'import { connect, resolveSkill, type Skill } from "@skillmux/core";',
      'import { createFsStorage } from "@skillmux/core/fs";',
      'import { createStdioTransport } from "@skillmux/core/stdio";',
      'import { createIndexedDbStorage } from "@skillmux/core/indexed-db";',
      'import { createUnstorageStorage } from "@skillmux/core/unstorage";',
      'import { createMultiUserRegistry } from "@skillmux/core/multi-user";',
      'const skill: Skill = (await resolveSkill("samtools")).skill;',
      "console.log(skill.name, connect, createFsStorage, createStdioTransport, createIndexedDbStorage, createUnstorageStorage, createMultiUserRegistry);",
      "",
    ].join("\n"),
  );
  execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", consumer], { stdio: "inherit" });

  // 2. The compiled JavaScript runs: user skills override built-ins.
  const name = "@skillmux/core"; // a computed specifier: type checkers don't follow it into dist/
  const core = await import(name) as typeof import("../lib/mod.ts");
  const fs = await import(`${name}/fs`) as typeof import("../lib/storage/fs.ts");
  await import(`${name}/indexed-db`);
  await import(`${name}/stdio`);
  await import(`${name}/unstorage`);
  await import(`${name}/multi-user`);
  const folders = {
    userDir: join(home, "user"),
    communityDir: join(home, "c"),
    configDir: join(home, "k"),
  };
  await fs.createFsStorage({ root: folders.userDir }).set(
    "samtools.md",
    "---\nname: samtools\ndescription: My own samtools notes. Use when sorting.\n---\n",
  );
  assert.equal((await core.resolveSkill("samtools", folders)).source, "user");
  assert.equal((await core.resolveSkill("bcftools", folders)).source, "builtin");
  // 3. The npm bin (dist/cli/main.js) runs and sees the same folders as resolveSkill().
  const cli = execFileSync(
    process.execPath,
    [
      join(root, "dist", "cli", "main.js"),
      "skill",
      "list",
      "--json",
      "--user-dir",
      folders.userDir,
      "--community-dir",
      folders.communityDir,
      "--config-dir",
      folders.configDir,
    ],
    { encoding: "utf8" },
  );
  const listed = JSON.parse(cli) as { skills: Array<{ name: string; source: string }> };
  assert.equal(listed.skills.find((s) => s.name === "samtools")?.source, "user");
  const names = await core.builtinSkillNames();
  console.log(
    `ok: dist/ type-checks for a NodeNext consumer, imports as "@skillmux/core" and its bin runs; ${names.length} built-ins`,
  );
} finally {
  await rm(home, { recursive: true, force: true });
}
