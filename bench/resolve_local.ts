// Local resolve with 10,000 skills in the user folder: median time per resolve(),
// warm (the same resolver again: parse cache checked by file metadata) and cold (a new
// resolver per call), next to peers measured in the same run:
//  - floor: read the one file and parse it (what a resolver without a cache must do);
//  - lstat: one metadata call (what a cache validated by file metadata must at least do);
//  - naive: list the folder on every call, then read and parse (what we must not do).
// Then list() of all 10,000: cold, unchanged (warm), and after one file changed, checking
// the changed file is served fresh.

import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBuiltinSource, createResolver, createStorageSource } from "../lib/mod.ts";
import { parseSkill } from "../lib/skill/mod.ts";
import { createFsStorage } from "../lib/storage/fs.ts";
import { fmt, quantile, runtime, sample } from "./_stats.ts";

const COUNT = 10_000;
const RUNS = 2_000;

function doc(i: number): string {
  return `---\nname: skill-${i}\ncategory: bench\ndescription: Benchmark skill ${i}. Use when measuring resolve.\n` +
    `tags: [bench, n${
      i % 97
    }]\n---\n\n## Concepts\n\n- Concept one of ${i}.\n- Concept two.\n- Concept three.\n\n` +
    `## Pitfalls\n\n- Pitfall one.\n- Pitfall two.\n- Pitfall three.\n\n## Examples\n\n` +
    Array.from(
      { length: 5 },
      (_, k) =>
        `### Task ${k} of ${i}\n**Args:** \`--run ${k} input_${i}.txt\`\n**Explanation:** Runs step ${k}.\n`,
    ).join("\n");
}

export async function benchResolveLocal(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "skillmux-bench-"));
  try {
    const writing = performance.now();
    for (let i = 0; i < COUNT; i += 500) {
      await Promise.all(
        Array.from(
          { length: 500 },
          (_, k) => writeFile(join(root, `skill-${i + k}.md`), doc(i + k)),
        ),
      );
    }
    console.log(`wrote ${COUNT} skills in ${((performance.now() - writing) / 1000).toFixed(1)} s`);
    // A user's folder was written long ago; files changed in the last 2 s are always re-read
    // (coarse timestamps), so let the newest settle before measuring warm calls.
    await new Promise((resolve) => setTimeout(resolve, 2_100));

    const user = createStorageSource({ label: "user", storage: createFsStorage({ root }) });
    const resolver = createResolver({ sources: [user, createBuiltinSource()] });
    const pick = (i: number) => `skill-${(i * 7919) % COUNT}`;

    const sources = () => [
      createStorageSource({ label: "user", storage: createFsStorage({ root }) }),
      createBuiltinSource(),
    ];
    const cold = await sample(200, (i) => createResolver({ sources: sources() }).resolve(pick(i)));
    for (let i = 0; i < RUNS + 20; i++) await resolver.resolve(pick(i)); // first sight: cold
    const ours = await sample(RUNS, (i) => resolver.resolve(pick(i)));
    const builtin = await sample(RUNS, () => resolver.resolve("samtools"));
    const stat = await sample(RUNS, (i) => lstat(join(root, `${pick(i)}.md`)));
    const floor = await sample(RUNS, async (i) => {
      const name = pick(i);
      await parseSkill(await readFile(join(root, `${name}.md`), "utf8"), { name });
    });
    const naive = await sample(50, async (i) => {
      const name = pick(i);
      const file = (await readdir(root)).find((f) => f === `${name}.md`)!;
      await parseSkill(await readFile(join(root, file), "utf8"), { name });
    }, 5);

    const m = (t: number[]) => quantile(t, 0.5);
    console.log(`\n## Local resolve, ${COUNT} skills in the user folder (${runtime()})`);
    console.log(
      `resolve() hit, warm              median ${fmt(m(ours))}  p95 ${fmt(quantile(ours, 0.95))}`,
    );
    console.log(
      `resolve() hit, cold (new resolver) median ${fmt(m(cold))}  p95 ${fmt(quantile(cold, 0.95))}`,
    );
    console.log(
      `resolve() miss → builtin         median ${fmt(m(builtin))}  p95 ${
        fmt(quantile(builtin, 0.95))
      }`,
    );
    console.log(`floor: readFile + parseSkill     median ${fmt(m(floor))}`);
    console.log(`floor: one lstat                 median ${fmt(m(stat))}`);
    console.log(`naive: readdir per call + parse  median ${fmt(m(naive))}`);
    console.log(
      `ratio warm resolve()/read+parse ${(m(ours) / m(floor)).toFixed(2)}x; warm/lstat ${
        (m(ours) / m(stat)).toFixed(2)
      }x; cold/warm ${(m(cold) / m(ours)).toFixed(1)}x; naive/warm ${
        (m(naive) / m(ours)).toFixed(0)
      }x`,
    );
    await benchList(root, resolver);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** list() of every skill: cold, unchanged, and after one edit (which must show). */
async function benchList(root: string, warmResolver: ReturnType<typeof createResolver>) {
  const user = () => createStorageSource({ label: "user", storage: createFsStorage({ root }) });
  const fresh = createResolver({ sources: [user()] });
  const t0 = performance.now();
  const first = await fresh.list();
  const coldMs = performance.now() - t0;
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await fresh.list();
    warm.push(performance.now() - t);
  }
  warm.sort((a, b) => a - b);
  const edited = doc(42).replace("Benchmark skill 42.", "Edited skill 42.");
  await writeFile(join(root, "skill-42.md"), edited);
  const t1 = performance.now();
  const after = await fresh.list();
  const editMs = performance.now() - t1;
  const seen = after.skills.find((s) => s.name === "skill-42")?.description;
  const resolved = (await warmResolver.resolve("skill-42")).skill.description;
  console.log(`\nlist() of ${first.skills.length} skills, cold      ${fmt(coldMs)}`);
  console.log(
    `list() unchanged (warm), median  ${fmt(quantile(warm, 0.5))}  (cold/warm ${
      (coldMs / quantile(warm, 0.5)).toFixed(1)
    }x)`,
  );
  console.log(`list() after editing one file    ${fmt(editMs)}`);
  console.log(
    `edit seen by list(): ${seen?.startsWith("Edited")}; by a warm resolve(): ${
      resolved.startsWith("Edited")
    }`,
  );
}
