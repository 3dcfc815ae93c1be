// Private: the map of the example-run check, test/skill_examples.json: per built-in skill, which
// toy files stand in for the file names its examples use, a setup, and per example what to expect
// or why it cannot run. Read and checked here; run by scripts/skill_examples.ts.
import { readFile } from "node:fs/promises";
import type { Skill } from "../lib/skill/mod.ts";
import { TOY_FILES } from "./_toy_data.ts";

/**
 * A claim an example makes, checked after it ran: `run` (a shell command in the example's folder)
 * must exit 0 and its stdout, trimmed, must equal `equals`, match `matches`, or be a number within
 * `atLeast`/`atMost`. `{truth.name}` in `run`, `equals` and `matches` is replaced by the known
 * answer of the toy data (truth.json, scripts/_toy_truth.ts); `$EXAMPLE_STDOUT` and
 * `$EXAMPLE_STDERR` name files with what the example printed.
 */
export interface ExampleClaim {
  /** What the example claims, in words (shown in the report). */
  claim: string;
  /** The shell command whose stdout holds the answer. */
  run: string;
  equals?: string;
  matches?: string;
  atLeast?: number | string;
  atMost?: number | string;
}

/** What one example must show, or why it is skipped. */
export interface ExampleExpectation {
  /** Why the example cannot run here (a database, GPU, network, proprietary tool, too slow). */
  skip?: string;
  /** Files (or folders) the example must leave behind, non-empty, relative to its folder. */
  files?: string[];
  /** The task says count: the first integer in stdout must be above 0. */
  count?: boolean;
  /** A regular expression stdout must match. */
  stdout?: string;
  /** The expected exit code (default 0). */
  exit?: number;
  /** What the example claims, checked on its output (a wrong answer fails, not only an exit code). */
  claims?: ExampleClaim[];
  /** Seconds before the example is stopped (default: the run's per-example timeout). */
  timeout?: number;
  /** Why the expectation is what it is, shown in the report. */
  note?: string;
}

/** One skill's entry. */
export interface SkillExampleEntry {
  /** Why none of the skill's examples can run (not packaged, needs a database, ...). */
  skip?: string;
  /**
   * The input files the examples name, each made from a toy file: a list of names (the toy file
   * is found from `aliases` or guessed from the name) or an object name → toy key.
   */
  files?: string[] | Record<string, string>;
  /** Shell commands run once in the skill's folder before the examples (an index, a database). */
  setup?: string;
  /** Shell commands run before the example's program, e.g. `mkdir -p out`, by task. */
  before?: Record<string, string>;
  /** Per example, by its task (the `###` title). */
  examples?: Record<string, ExampleExpectation>;
}

/** The whole map file. */
export interface ExampleMap {
  /** Common file names → toy keys, used by every skill's `files` list. */
  aliases: Record<string, string>;
  skills: Record<string, SkillExampleEntry>;
}

/** Reads test/skill_examples.json. */
export async function readExampleMap(
  url = new URL("../test/skill_examples.json", import.meta.url),
): Promise<ExampleMap> {
  const map = JSON.parse(await readFile(url, "utf8")) as ExampleMap;
  return { aliases: map.aliases ?? {}, skills: map.skills ?? {} };
}

/** The toy key for a file name an example uses: from the aliases, else guessed from its name. */
export function toyFor(name: string, aliases: Record<string, string>): string | undefined {
  if (aliases[name] !== undefined) return aliases[name];
  const base = name.split("/").at(-1)!.toLowerCase();
  const long = /(ont|nanopore|long|pacbio|hifi|isoseq)/.test(base);
  if (/\.(fastq|fq)(\.gz)?$/.test(base)) {
    const gz = base.endsWith(".gz");
    if (long) return gz ? "long" : "long.fq";
    if (/interleaved/.test(base)) return "interleaved";
    const mate = /(_r?2|_2)(_001)?[._]/.test(base) ? "2" : "1";
    if (/rna/.test(base) && gz) return `rna_${mate}`;
    return gz ? `reads_${mate}` : `reads_${mate}.fq`;
  }
  if (base.endsWith(".bam")) {
    if (/name/.test(base)) return "bam_name";
    if (/rna|aligned/.test(base)) return "rna_bam";
    return long ? "long_bam" : "bam";
  }
  if (base.endsWith(".sam")) return "sam";
  if (base.endsWith(".vcf.gz")) return /cohort/.test(base) ? "cohort.vcf.gz" : "vcf.gz";
  if (base.endsWith(".vcf")) return /cohort/.test(base) ? "cohort_vcf" : "vcf";
  if (base.endsWith(".gtf")) return "gtf";
  if (/\.gff3?$/.test(base)) return "gff3";
  if (base.endsWith(".bed")) return /target/.test(base) ? "targets.bed" : "genes.bed";
  if (base.endsWith(".faa")) return /aln/.test(base) ? "protein_aln" : "proteins";
  if (/\.(fa|fasta|fna)\.gz$/.test(base)) {
    return /transcript/.test(base) ? "transcripts.gz" : "genome.gz";
  }
  if (/\.(fa|fasta|fna)$/.test(base)) {
    if (/aln/.test(base)) return "dna_aln";
    if (/contig|assembly|draft|scaffold/.test(base)) return "contigs";
    if (/transcript/.test(base)) return "transcripts";
    if (/gene|cds/.test(base)) return "cds";
    if (/protein/.test(base)) return "proteins";
    return "genome";
  }
  return undefined;
}

/** The input files of an entry as name → toy key; throws naming the skill and file on a bad one. */
export function entryFiles(
  skill: string,
  entry: SkillExampleEntry,
  aliases: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const given = Array.isArray(entry.files)
    ? Object.fromEntries(entry.files.map((f) => [f, ""]))
    : entry.files ?? {};
  for (const [name, key] of Object.entries(given)) {
    const toy = key === "" ? toyFor(name, aliases) : key;
    if (toy === undefined || TOY_FILES[toy] === undefined) {
      throw new Error(
        `test/skill_examples.json: skills.${skill}.files: no toy file for "${name}"` +
          (toy ? ` (unknown key "${toy}")` : "") +
          `; give one of: ${Object.keys(TOY_FILES).join(", ")}`,
      );
    }
    out[name] = toy;
  }
  return out;
}

/** Problems of the map for these skills: unknown tasks, expectations without a reason to skip, .... */
export function checkExampleMap(map: ExampleMap, skills: Skill[], builtins: string[]): string[] {
  const problems: string[] = [];
  const names = new Set(builtins);
  for (const name of Object.keys(map.skills)) {
    if (!names.has(name)) problems.push(`skills.${name}: no built-in skill of that name`);
  }
  for (const [alias, key] of Object.entries(map.aliases)) {
    if (TOY_FILES[key] === undefined) problems.push(`aliases.${alias}: unknown toy key "${key}"`);
  }
  for (const skill of skills) {
    const entry = map.skills[skill.name];
    if (entry === undefined) continue;
    if (entry.skip !== undefined && entry.skip.trim() === "") {
      problems.push(`skills.${skill.name}.skip: give the reason`);
    }
    try {
      entryFiles(skill.name, entry, map.aliases);
    } catch (e) {
      problems.push((e as Error).message);
    }
    const tasks = new Set(skill.examples.map((e) => e.task));
    for (const [task, exp] of Object.entries({ ...entry.examples, ...entry.before })) {
      if (!tasks.has(task)) problems.push(`skills.${skill.name}: no example "${task}"`);
      if (typeof exp === "object" && exp.skip !== undefined && exp.skip.trim() === "") {
        problems.push(`skills.${skill.name}.examples["${task}"].skip: give the reason`);
      }
      const claims = typeof exp === "object" ? exp.claims ?? [] : [];
      claims.forEach((c, i) => {
        const at = `skills.${skill.name}.examples["${task}"].claims[${i}]`;
        if (!c.claim?.trim() || !c.run?.trim()) problems.push(`${at}: give claim and run`);
        const tests = ["equals", "matches", "atLeast", "atMost"].filter((k) => k in c);
        if (tests.length === 0) {
          problems.push(`${at}: give equals, matches, atLeast or atMost`);
        }
      });
    }
  }
  return problems;
}
