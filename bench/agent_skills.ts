// Published Agent Skills, at scale. Figures, not assertions.
//
// 1. Collections: for each folder given (default: the 45 vendored skills and the hand-made
//    shapes), the skills that load and those refused (by reason class), the share of the ones
//    the specification calls valid that lint clean, and the files each path reaches (the
//    resolver's answer, serve's skills/list).
// 2. Listing 1,000 folder skills (the vendored ones copied under new names): resolver.list()
//    cold and warm, serve's skills/list (cold: first request; warm), next to the floor measured
//    in the same run: read and parse every SKILL.md, and walk every folder for its files.
//
//   node --import tsx bench/agent_skills.ts [collection folders...]
//   node_modules/.bin/deno run -A bench/agent_skills.ts [collection folders...]

import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import process from "node:process";
import { createResolver, createStorageSource } from "../lib/mod.ts";
import { lintSkill, parseSkill } from "../lib/skill/mod.ts";
import { createFsStorage } from "../lib/storage/fs.ts";
import { fsSkillFiles } from "../lib/resolve/fs_files.ts";
import { walkSkillFolder } from "../lib/resolve/fs_folder.ts";
import { findSkills } from "../lib/install/discover.ts";
import { connect } from "../lib/mcp/client/client.ts";
import { listSkillEntries } from "../lib/mcp/skills/client.ts";
import { fmt, quantile, runtime, sample } from "./_stats.ts";

const VENDORED = new URL("../test/fixtures/agent-skills/", import.meta.url).pathname;
const SHAPES = new URL("../test/fixtures/agent-shapes/", import.meta.url).pathname;

/** A reason class: the message without names, paths and numbers. */
const reasonClass = (message: string) =>
  message.replace(/^Cannot parse skill[^:]*?(\([^)]*\))?: /, "").replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, "N").slice(0, 80);

async function collection(root: string): Promise<void> {
  const found = await findSkills(root);
  const refused = new Map<string, number>();
  let loaded = 0, valid = 0, validClean = 0, files = 0;
  for (const skill of found.skills) {
    const text = await readFile(skill.document, "utf8");
    let parsed;
    try {
      parsed = await parseSkill(text, { name: skill.name, source: skill.document });
    } catch (error) {
      const key = reasonClass((error as Error).message);
      refused.set(key, (refused.get(key) ?? 0) + 1);
      continue;
    }
    loaded++;
    const walk = skill.folder === undefined
      ? undefined
      : await walkSkillFolder(skill.folder, { maxFiles: 1_000, maxBytes: 50 * 2 ** 20 });
    files += walk?.files.length ?? 0;
    const { skill: s, diagnostics } = parsed;
    // What the specification calls valid: a name equal to the folder, lengths, string metadata.
    const specValid = s.declaredName === undefined && s.description.length <= 1024 &&
      (s.compatibility?.length ?? 0) <= 500 &&
      !diagnostics.some((d) => d.field?.startsWith("metadata"));
    if (!specValid) continue;
    valid++;
    const lint = lintSkill(s, { files: walk?.files.map((f) => f.path) ?? [] });
    if (lint.every((d) => d.severity !== "error")) validClean++;
  }
  const total = found.skills.length;
  const pct = (n: number, d: number) => d === 0 ? "-" : `${((100 * n) / d).toFixed(1)} %`;
  console.log(
    `${basename(root.replace(/\/$/, ""))}: ${total} skills, ${loaded} load, ${
      total - loaded
    } refused; ` +
      `${valid} valid by the spec, ${validClean} of them lint-clean (${pct(validClean, valid)}); ` +
      `${files} supporting files`,
  );
  for (const [reason, n] of [...refused].sort((a, b) => b[1] - a[1])) {
    console.log(`  refused ${n}: ${reason}`);
  }
}

/** 1,000 folder skills: the vendored ones, copied under new names. */
async function thousand(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "skillmux-bench-agent-"));
  const names = (await findSkills(VENDORED)).skills.map((s) => s.name);
  for (let i = 0; i < 1_000; i++) {
    const from = names[i % names.length];
    const name = `${from}-${Math.floor(i / names.length)}`;
    await cp(join(VENDORED, from), join(root, name), { recursive: true });
    const doc = join(root, name, "SKILL.md");
    const text = await readFile(doc, "utf8");
    await writeFile(doc, text.replace(/^name: .*$/m, `name: ${name}`));
  }
  return root;
}

async function listing(): Promise<void> {
  const root = await thousand();
  try {
    const names = (await findSkills(root)).skills;
    const resolverOf = () =>
      createResolver({
        sources: [createStorageSource({
          label: "user",
          storage: createFsStorage({ root }),
          files: fsSkillFiles(root),
        })],
      });
    const floor = await sample(5, async () => {
      for (const s of names) await parseSkill(await readFile(s.document, "utf8"), { name: s.name });
    }, 1);
    const walk = await sample(5, async () => {
      for (const s of names) await walkSkillFolder(s.folder!, { maxFiles: 1_000, maxBytes: 5e7 });
    }, 1);
    const cold = await sample(5, async () => await resolverOf().list(), 1);
    const warmResolver = resolverOf();
    const warm = await sample(20, async () => await warmResolver.list(), 2);
    const listed = (await warmResolver.list()).skills.length;
    const { serveSkills } = await import("../lib/server/mod.ts");
    let serveCold = 0;
    let serveWarm: number[] = [];
    {
      const server = await serveSkills({ folder: root });
      const client = await connect({ name: "bench", url: server.url }, { timeoutMs: 120_000 });
      try {
        const start = performance.now();
        const first = await listSkillEntries(client);
        serveCold = performance.now() - start;
        if (first.skills.length !== listed) throw new Error(`skills/list: ${first.skills.length}`);
        serveWarm = await sample(10, async () => await listSkillEntries(client), 1);
      } finally {
        await client.close();
        await server.close();
      }
    }
    const med = (t: number[]) => quantile(t, 0.5);
    console.log(`\n## Listing ${listed} folder skills (${runtime()}), median`);
    console.log(`floor: read + parse every SKILL.md       ${fmt(med(floor))}`);
    console.log(`floor: walk every folder for its files   ${fmt(med(walk))}`);
    console.log(
      `resolver.list(), a new resolver         ${fmt(med(cold))}  (${
        (med(cold) / med(floor)).toFixed(2)
      }× the parse floor)`,
    );
    console.log(
      `resolver.list(), the same resolver      ${fmt(med(warm))}  (${
        (med(warm) / med(floor)).toFixed(2)
      }×)`,
    );
    console.log(
      `serve skills/list, first request        ${fmt(serveCold)}  (${
        (serveCold / (med(floor) + med(walk))).toFixed(2)
      }× parse + walk)`,
    );
    console.log(
      `serve skills/list, unchanged folder     ${fmt(med(serveWarm))}  (${
        (med(serveWarm) / med(floor)).toFixed(2)
      }× the parse floor)`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export async function benchAgentSkills(folders: readonly string[] = []): Promise<void> {
  console.log("\n## Published Agent Skills: loaded, refused, lint-clean, files");
  for (const folder of folders.length > 0 ? folders : [VENDORED, SHAPES]) await collection(folder);
  await listing();
}

if ((import.meta as { main?: boolean }).main || process.argv[1]?.endsWith("agent_skills.ts")) {
  await benchAgentSkills(process.argv.slice(2).filter((a) => !a.startsWith("-")));
  process.exit(0);
}
