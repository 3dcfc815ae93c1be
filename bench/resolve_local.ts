// Local resolve with 10,000 skills in the user folder: median time per resolve(),
// next to two peers measured in the same run:
//  - floor: read the one file and parse it (what any resolver must at least do);
//  - naive: list the folder on every call, then read and parse (what we must not do).

import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createBuiltinSource,
  createResolver,
  createStorageSource,
  parseSkill,
} from "../lib/mod.ts";
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

    const user = createStorageSource({ label: "user", storage: createFsStorage({ root }) });
    const resolver = createResolver({ sources: [user, createBuiltinSource()] });
    const pick = (i: number) => `skill-${(i * 7919) % COUNT}`;

    const ours = await sample(RUNS, (i) => resolver.resolve(pick(i)));
    const builtin = await sample(RUNS, () => resolver.resolve("samtools"));
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
      `resolve() hit in user folder     median ${fmt(m(ours))}  p95 ${fmt(quantile(ours, 0.95))}`,
    );
    console.log(
      `resolve() miss → builtin         median ${fmt(m(builtin))}  p95 ${
        fmt(quantile(builtin, 0.95))
      }`,
    );
    console.log(`floor: readFile + parseSkill     median ${fmt(m(floor))}`);
    console.log(`naive: readdir per call + parse  median ${fmt(m(naive))}`);
    console.log(
      `ratio resolve()/floor ${(m(ours) / m(floor)).toFixed(2)}x; naive/resolve() ${
        (m(naive) / m(ours)).toFixed(0)
      }x`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
