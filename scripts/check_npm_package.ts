// Import the compiled npm package (dist/, through package.json "exports") the way a
// Node user would, and check the zero-config resolver and the built-ins work from it.
//
//   npm run build && node --import tsx scripts/check_npm_package.ts

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const core = await import("skillmux");
const fs = await import("skillmux/fs");
await import("skillmux/indexed-db");

const home = await mkdtemp(join(tmpdir(), "skillmux-npm-"));
try {
  const userDir = join(home, "user");
  const storage = fs.createFsStorage({ root: userDir });
  await storage.set(
    "samtools.md",
    "---\nname: samtools\ndescription: My own samtools notes. Use when sorting.\n---\n",
  );
  const mine = await core.resolveSkill("samtools", { userDir, communityDir: join(home, "c") });
  assert.equal(mine.source, "user");
  const builtin = await core.resolveSkill("bcftools", { userDir, communityDir: join(home, "c") });
  assert.equal(builtin.source, "builtin");
  const names = await core.builtinSkillNames();
  console.log(
    `ok: dist/ imports as "skillmux"; ${names.length} built-ins; user skills override them`,
  );
} finally {
  await rm(home, { recursive: true, force: true });
}
