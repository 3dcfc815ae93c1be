// Parse throughput (skills per second) over the built-in skills, next to the YAML
// front matter parse alone (the `yaml` package), measured in the same run.

import { parse as parseYaml } from "yaml";
import { parseSkill } from "../lib/skill/mod.ts";
import { BUILTIN_SKILLS } from "../lib/resolve/_builtin_skills.ts";
import { runtime } from "./_stats.ts";

async function throughput(
  ms: number,
  fn: (text: string, name: string) => unknown,
): Promise<number> {
  const entries = Object.entries(BUILTIN_SKILLS);
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (const [name, text] of entries) await fn(text, name);
    done += entries.length;
  }
  return done / ((performance.now() - start) / 1000);
}

export async function benchParse(): Promise<void> {
  const frontMatter = (text: string) => parseYaml(text.slice(4, text.indexOf("\n---", 4)));
  await throughput(300, (t, name) => parseSkill(t, { name }));
  await throughput(300, frontMatter);
  const ours = await throughput(2000, (t, name) => parseSkill(t, { name }));
  const yamlOnly = await throughput(2000, frontMatter);
  const bytes = Object.values(BUILTIN_SKILLS).reduce((n, t) => n + t.length, 0) /
    Object.keys(BUILTIN_SKILLS).length;
  console.log(
    `\n## Parse throughput, ${Object.keys(BUILTIN_SKILLS).length} built-in skills, ~${
      (bytes / 1024).toFixed(1)
    } KiB each (${runtime()})`,
  );
  console.log(`parseSkill (front matter, sections, digest)  ${ours.toFixed(0)} skills/s`);
  console.log(`yaml.parse of the front matter alone          ${yamlOnly.toFixed(0)} skills/s`);
  console.log(`ratio parseSkill/yaml-only time ${(yamlOnly / ours).toFixed(2)}x`);
}
