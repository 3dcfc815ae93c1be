// Node's permission model (`--permission`, `--experimental-permission` before Node 22): the
// zero-config resolver, bundled into one file and run with read access to that file only, skips
// the folders and the MCP registry it may not read, with diagnostics, and answers from the
// built-ins instead of throwing; each diagnostic names the flag (`--allow-fs-read=<folder>`) to add.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { build } from "esbuild";

const isDeno = (globalThis as { Deno?: unknown }).Deno !== undefined;
const flag = process.allowedNodeEnvironmentFlags?.has("--permission")
  ? "--permission"
  : process.allowedNodeEnvironmentFlags?.has("--experimental-permission")
  ? "--experimental-permission"
  : undefined;
const skip = isDeno
  ? "Node's permission model (Deno's permissions: test/deno_consumer.test.ts)"
  : flag === undefined
  ? "this Node has no permission model"
  : false;

const MOD = fileURLToPath(new URL("../../lib/mod.ts", import.meta.url));
// The skill texts are an asset a one-file bundle ships beside itself (docs/bundle.md).
const SKILLS_JSON = fileURLToPath(
  new URL("../../lib/resolve/_builtin_skills.json", import.meta.url),
);
const SCRIPT = `import { closeSkillResolvers, resolveSkill } from ${JSON.stringify(MOD)};
const hit = await resolveSkill("samtools");
const skipped = hit.diagnostics.map((d) => [d.source, d.message]);
console.log(JSON.stringify({ source: hit.source, skipped }));
await closeSkillResolvers();
`;

test(
  "Node with read access to the app only: folders skipped, built-ins answer",
  { skip },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "skillmux-node-permission-"));
    try {
      const home = join(dir, "home");
      await mkdir(join(home, ".config", "skillmux", "skills"), { recursive: true });
      await writeFile(
        join(home, ".config", "skillmux", "skills", "samtools.md"),
        "---\nname: samtools\ndescription: Mine. Use when testing.\n---\n",
      );
      const app = join(dir, "app");
      await writeFile(join(dir, "entry.ts"), SCRIPT);
      await build({
        entryPoints: [join(dir, "entry.ts")],
        bundle: true,
        format: "esm",
        platform: "node",
        outfile: join(app, "app.mjs"),
        logLevel: "error",
        // CommonJS dependencies (yaml) require Node built-ins.
        banner: {
          js:
            'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);',
        },
      });
      await copyFile(SKILLS_JSON, join(app, "_builtin_skills.json"));
      const run = (...grants: string[]) =>
        new Promise<string>((resolve, reject) => {
          execFile(
            process.execPath,
            [flag!, `--allow-fs-read=${app}/`, ...grants, join(app, "app.mjs")],
            { env: { HOME: home, PATH: process.env.PATH ?? "" }, timeout: 60_000 },
            (error, stdout, stderr) =>
              error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
          );
        });
      const denied = JSON.parse(await run()) as { source: string; skipped: string[][] };
      assert.equal(denied.source, "builtin");
      assert.deepEqual(denied.skipped.map(([source]) => source), ["user", "community", "mcp"]);
      // Each diagnostic names the flag that grants what was refused, as Deno's do.
      const folders = [
        join(home, ".config", "skillmux", "skills"),
        join(home, ".local", "share", "skillmux", "skills"),
        join(home, ".config", "skillmux"),
      ];
      for (const [i, [, message]] of denied.skipped.entries()) {
        assert.match(message, /Access to this API has been restricted/);
        assert.ok(
          message.endsWith(`; run Node with --allow-fs-read=${folders[i]}`),
          `${message} names the flag`,
        );
      }
      // Adding the flag the user folder's diagnostic names is enough to read it.
      const grant = /--allow-fs-read=\S+$/.exec(denied.skipped[0][1])![0];
      const granted = JSON.parse(await run(grant)) as { source: string; skipped: string[][] };
      assert.equal(granted.source, "user");
      assert.deepEqual(granted.skipped, []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
