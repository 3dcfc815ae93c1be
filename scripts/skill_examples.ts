// The example-run check: runs every example of every built-in skill (skills/*.md) whose tool
// Debian packages, on toy data it makes (scripts/_toy_data.ts), each in a fresh folder per skill
// with a timeout, and asserts the exit code and a plausible output (test/skill_examples.json says
// which toy file stands in for each file name, what each example must leave, what it claims, checked
// on its output against toy data with a known answer, and why the others are skipped). Compares the installed Debian version with each skill's checked_version.
//
//   npm run test:examples                       all skills (CI; installs nothing)
//   npm run test:examples -- --quick            the skills the help check installs as "quick"
//   npm run test:examples -- --skill samtools,bcftools --keep
//   npm run test:examples -- --report docs/skill-examples.md
//   npm run test:examples -- --skill a,b --results /tmp/ex.json --report docs/skill-examples.md
//     (--results: the outcomes of earlier runs, kept in that file; this run replaces its skills'
//     outcomes there and the report covers them all, so the check can run in chunks)
//
// Exits 1 when an example fails or the map is wrong; skipped examples are listed with the reason.
import { execFileSync } from "node:child_process";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { BUILTIN_SKILLS } from "../lib/resolve/_builtin_skills.ts";
import { parseSkill, type Skill } from "../lib/skill/mod.ts";
import { helpEntries } from "../test/_help_check.ts";
import { checkExampleMap, readExampleMap } from "./_example_map.ts";
import { type ExampleResult, runSkillExamples, stopAll } from "./_example_run.ts";
import { type ClaimTexts, renderReport, type SkillOutcome } from "./_example_report.ts";
import { buildToyData, TOY_VERSION } from "./_toy_data.ts";

const { values } = parseArgs({
  options: {
    skill: { type: "string" },
    quick: { type: "boolean" },
    timeout: { type: "string", default: "60" },
    budget: { type: "string", default: "1500" },
    report: { type: "string" },
    keep: { type: "boolean" },
    results: { type: "string" },
  },
});

/** The installed version of a Debian package, without epoch and Debian revision, or undefined. */
function debianVersion(pkg: string): string | undefined {
  try {
    const v = execFileSync("dpkg-query", ["-W", "-f", "${Status} ${Version}", pkg], {
      encoding: "utf8",
    });
    if (!v.startsWith("install ok installed")) return undefined;
    // "13.45.0.4846264+really13.41.0.28bdc39": Debian's "+really" names the version inside.
    return v.split(" ").at(-1)!.replace(/^\d+:/, "").replace(/^.*\+really/, "").replace(
      /-[^-]*$/,
      "",
    ).replace(
      /[+~](dfsg|ds).*$/,
      "",
    );
  } catch {
    return undefined;
  }
}

/** Whether the Debian version is the checked one (Debian spells some versions differently). */
function sameVersion(checked: string, installed: string): boolean {
  const norm = (v: string) => v.toLowerCase().replace(/^v/, "").replace(/[~_-]/g, "");
  return norm(installed).startsWith(norm(checked)) || norm(checked).startsWith(norm(installed));
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    stopAll();
    process.exit(130);
  });
}

const started = performance.now();
const deadline = started + Number(values.budget) * 1000;
const map = await readExampleMap();
const help = await helpEntries();
const only = values.skill?.split(",").map((s) => s.trim());
const skills: Skill[] = [];
for (const [name, text] of Object.entries(BUILTIN_SKILLS)) {
  if (only && !only.includes(name)) continue;
  if (values.quick && !help[name]?.quick) continue;
  skills.push((await parseSkill(text, { name })).skill);
}
const problems = checkExampleMap(map, skills, Object.keys(BUILTIN_SKILLS));
if (problems.length > 0) {
  console.error(`test/skill_examples.json:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}

/** The outcomes in `--results` before this run, read once. */
let earlier: SkillOutcome[] | undefined;

/** Writes this run's outcomes over the earlier ones in `file`; returns them all, by skill. */
async function saveResults(file: string): Promise<SkillOutcome[]> {
  earlier ??= await readFile(file, "utf8").then(
    (t) => JSON.parse(t) as SkillOutcome[],
    () => [] as SkillOutcome[],
  );
  const ran = new Set(outcomes.map((o) => o.skill));
  const known = new Set(Object.keys(BUILTIN_SKILLS));
  const all = [...earlier.filter((o) => !ran.has(o.skill) && known.has(o.skill)), ...outcomes]
    .sort((a, b) => a.skill.localeCompare(b.skill));
  const tmp = `${file}.tmp${process.pid}`;
  await writeFile(tmp, JSON.stringify(all, null, 1));
  await rename(tmp, file);
  return all;
}

const toyDir = await buildToyData(join(tmpdir(), `skillmux-toy-v${TOY_VERSION}`));
console.log(`toy data: ${toyDir}`);
const outcomes: SkillOutcome[] = [];
for (const skill of skills) {
  const entry = map.skills[skill.name];
  const pkg = help[skill.name]?.package ?? undefined;
  const installed = pkg ? debianVersion(pkg) : undefined;
  const outcome: SkillOutcome = {
    skill: skill.name,
    checked: skill.checkedVersion,
    package: pkg,
    installed,
    results: [],
  };
  outcome.versionMismatch = installed !== undefined && skill.checkedVersion !== undefined &&
    !sameVersion(skill.checkedVersion, installed);
  const skipAll = (reason: string): ExampleResult[] =>
    skill.examples.map((e) => ({ task: e.task, command: "", status: "skipped" as const, reason }));
  if (entry === undefined) outcome.results = skipAll("no entry in test/skill_examples.json yet");
  else if (entry.skip !== undefined) outcome.results = skipAll(entry.skip);
  else if (pkg && installed === undefined) {
    outcome.results = skipAll(`the Debian package ${pkg} is not installed`);
  } else {
    try {
      outcome.results = await runSkillExamples(skill, map, {
        toyDir,
        timeoutS: Number(values.timeout),
        deadline,
        keep: values.keep,
      });
    } catch (e) {
      // A skill the runner cannot prepare (a toy file missing) fails alone; the others still run.
      const reason = `the run could not start: ${(e as Error).message}`;
      outcome.results = skill.examples.map((x) => ({
        task: x.task,
        command: "",
        status: "failed" as const,
        reason,
      }));
    }
  }
  outcomes.push(outcome);
  // Saved after each skill, so a run stopped part way keeps what it did.
  if (values.results) await saveResults(values.results);
  const n = (s: string) => outcome.results.filter((r) => r.status === s).length;
  console.log(
    `${skill.name}: ${n("passed")} passed, ${n("failed")} failed, ${n("skipped")} skipped` +
      (outcome.versionMismatch
        ? ` (checked ${skill.checkedVersion}, Debian has ${installed})`
        : ""),
  );
  for (const r of outcome.results.filter((r) => r.status === "failed")) {
    console.log(`  FAIL ${r.task}\n    $ ${r.command}\n    ${r.reason}`);
  }
}

const all = outcomes.flatMap((o) => o.results);
const count = (s: string) => all.filter((r) => r.status === s).length;
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(
  `\nexamples: ${all.length} in ${skills.length} skills; ${count("passed")} passed, ${
    count("failed")
  } failed, ` +
    `${count("skipped")} skipped; ${
      all.filter((r) => r.status === "passed" && (r.claims ?? 0) > 0).length
    } passed with claims (${seconds} s)`,
);
let reported = outcomes;
if (values.results) {
  reported = await saveResults(values.results);
  console.log(`results of ${reported.length} skills in ${values.results}`);
  // The report covers every built-in: one that no chunk has run yet is listed as skipped.
  const have = new Set(reported.map((o) => o.skill));
  for (const [name, text] of Object.entries(BUILTIN_SKILLS)) {
    if (have.has(name)) continue;
    const { skill } = await parseSkill(text, { name });
    const reason = "not run yet: no chunk of this run covered it (--results)";
    const pkg = help[name]?.package ?? undefined;
    reported.push({
      skill: name,
      checked: skill.checkedVersion,
      package: pkg,
      installed: pkg ? debianVersion(pkg) : undefined,
      results: skill.examples.map((e) => ({
        task: e.task,
        command: "",
        status: "skipped" as const,
        reason,
      })),
    });
  }
  reported.sort((a, b) => a.skill.localeCompare(b.skill));
}
if (values.report) {
  const claims: ClaimTexts = {};
  for (const [name, entry] of Object.entries(map.skills)) {
    for (const [task, exp] of Object.entries(entry.examples ?? {})) {
      if (exp.claims?.length) (claims[name] ??= {})[task] = exp.claims.map((c) => c.claim);
    }
  }
  await writeFile(values.report, renderReport(reported, claims));
  console.log(`wrote ${values.report}`);
}
process.exit(count("failed") > 0 ? 1 : 0);
