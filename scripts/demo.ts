// `npm start`: list every skill the zero-config resolver sees and resolve one of them.
//
//   npm start                 # all skills, then the samtools skill
//   npm start -- bcftools     # all skills, then the bcftools skill

import process from "node:process";
import { listSkills, resolveSkill } from "../lib/mod.ts";
import { defaultSkillFolders } from "../lib/resolve/mod.ts";

const name = process.argv[2] ?? "samtools";
const folders = await defaultSkillFolders();
console.log(`skillmux: user skills in ${folders?.user}`);
console.log(`          community skills in ${folders?.community}\n`);

const { skills, diagnostics } = await listSkills();
const width = Math.max(...skills.map((s) => s.name.length), 4);
console.log(`${"SKILL".padEnd(width)}  ${"SOURCE".padEnd(10)}  DESCRIPTION`);
for (const s of skills) {
  const shadows = s.shadows.length > 0 ? ` (shadows ${s.shadows.join(", ")})` : "";
  const description = s.description.length > 70 ? `${s.description.slice(0, 69)}…` : s.description;
  console.log(`${s.name.padEnd(width)}  ${s.source.padEnd(10)}  ${description}${shadows}`);
}
console.log(`\n${skills.length} skills available.`);
for (const d of diagnostics) console.log(`warning: ${d.source}: ${d.message}`);

const hit = await resolveSkill(name);
console.log(`\nresolveSkill(${JSON.stringify(name)}) → source "${hit.source}" (${hit.location})`);
console.log(`  ${hit.skill.description}`);
console.log(
  `  ${hit.skill.concepts.length} concepts, ${hit.skill.pitfalls.length} pitfalls, ${hit.skill.examples.length} examples`,
);
const [example] = hit.skill.examples;
if (example) console.log(`  e.g. ${example.task}: ${hit.skill.name} ${example.args}`);
