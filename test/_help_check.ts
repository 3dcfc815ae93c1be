// Checks the long options of a skill's examples against the help of the installed program.
// Used by test/builtin_help.test.ts; run by hand on any skill file with
//   node --import tsx test/_help_check.ts skills/samtools.md
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import process from "node:process";
import { gunzipSync } from "node:zlib";
import { mapLimit } from "../lib/_pool.ts";
import { splitCommand } from "../lib/cli/_args.ts";
import { exampleProgram, parseSkill, type Skill } from "../lib/skill/mod.ts";

/** How to get the help of one built-in's programs (an entry of test/builtin_help.json). */
export interface HelpEntry {
  /** The Debian package holding the program, or `null` when Debian has none. */
  package: string | null;
  /** Why there is no package (when `package` is `null`). */
  reason?: string;
  /** Whether `npm test` installs the package (small and quick). */
  quick?: boolean;
  /**
   * Other Debian packages the examples' programs need, installed with `package`: a companion's
   * package (kallisto's `bustools`), or a library the package forgets (mosdepth loads `libhts.so`).
   */
  extra?: string[];
  /** Commands whose output together is the help of the main program; `{sub}` is the first word of the args. */
  help?: string[];
  /** Help commands of companion programs, by program; default `<program> --help`. */
  companions?: Record<string, string[]>;
  /** Man pages (section 1) whose text counts as help too; `{sub}` as in `help`. */
  man?: string[];
  /** Options are listed without dashes at the start of a line (STAR). */
  bare?: boolean;
  /** Options the help documents under another name, e.g. `--un-conc-gz` → `--un-conc`. */
  aliases?: Record<string, string>;
  /** Options known to be missing from this package's help, each with the reason (checked elsewhere). */
  notInHelp?: Record<string, string>;
}

/** The data file, by skill name. */
export async function helpEntries(): Promise<Record<string, HelpEntry>> {
  const url = new URL("./builtin_help.json", import.meta.url);
  return (JSON.parse(await readFile(url, "utf8")) as { skills: Record<string, HelpEntry> }).skills;
}

/** One long option used in an example, and the help command it was looked up in. */
export interface OptionUse {
  example: number;
  program: string;
  option: string;
  /** The first word of the args (a subcommand, for suites such as samtools). */
  sub: string;
  help: string[];
}

const OPERATORS = new Set(["|", "||", "&&", ";", "&"]);

/**
 * The long options of every example, with the help commands of the program that receives them:
 * the example's program, and in a pipeline also later commands that run one of the skill's programs.
 */
export function optionUses(skill: Skill, entry: HelpEntry): OptionUse[] {
  const uses: OptionUse[] = [];
  const main = skill.command ?? skill.name;
  const helpOf = (program: string, sub: string): string[] => {
    const templates = program === main
      ? entry.help ?? ["{program} --help"]
      : entry.companions?.[program] ?? ["{program} --help"];
    return templates.map((t) => t.replaceAll("{program}", program).replaceAll("{sub}", sub));
  };
  skill.examples.forEach((example, index) => {
    const words = splitCommand(example.args);
    let program = exampleProgram(skill, example);
    let segment: string[] = [];
    const flush = () => {
      const sub = segment.find((w) => !w.startsWith("-")) ?? "";
      for (const word of segment) {
        const option = /^--[A-Za-z][A-Za-z0-9_.-]*/.exec(word)?.[0];
        if (option) {
          uses.push({ example: index + 1, program, option, sub, help: helpOf(program, sub) });
        }
      }
    };
    for (let i = 0; i < words.length; i++) {
      if (!OPERATORS.has(words[i])) {
        segment.push(words[i]);
        continue;
      }
      flush();
      segment = [];
      // A later command counts only when it runs one of this skill's programs.
      const next = words[i + 1] ?? "";
      const known = [main, ...Object.keys(entry.companions ?? {})];
      const match = known.find((p) => p.split(" ").at(-1) === next);
      if (match === undefined) {
        while (i + 1 < words.length && !OPERATORS.has(words[i + 1])) i++;
        continue;
      }
      program = match;
      i++;
    }
    flush();
  });
  return uses;
}

/**
 * How long one help command may take. cnvkit's imports (pandas, scipy, matplotlib) take 3 s on an
 * idle machine and passed 30 s at load 9, where its help came back empty.
 */
const HELP_TIMEOUT_MS = 90_000;

/**
 * Output (stdout and stderr) of `command`, or `undefined` when its program is not installed.
 * Rejects when it does not finish in time: a help cut short must not read as options missing.
 */
export function runHelp(command: string): Promise<string | undefined> {
  const [file, ...args] = splitCommand(command);
  return new Promise((done, fail) => {
    const child = execFile(
      file,
      args,
      {
        timeout: HELP_TIMEOUT_MS,
        maxBuffer: 8 << 20,
        env: { PATH: process.env.PATH ?? "", LC_ALL: "C" },
      },
      (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT") return done(undefined);
        if (error?.killed) {
          return fail(new Error(`"${command}" did not finish in ${HELP_TIMEOUT_MS / 1000} s`));
        }
        done(`${stdout}\n${stderr}`);
      },
    );
    child.stdin?.end();
  });
}

/** The text of a section-1 man page, roff escapes removed, or `""` when it is not there. */
export async function manText(name: string): Promise<string> {
  try {
    const roff = gunzipSync(await readFile(`/usr/share/man/man1/${name}.1.gz`)).toString("utf8");
    return roff.replace(/\\f[BIRPC]|\\f\(\w\w|\\&/g, "").replace(/\\-/g, "-");
  } catch {
    return "";
  }
}

/** Whether `option` (`--name`) appears in `help` as a whole option. */
export function helpHasOption(help: string, option: string, bare = false): boolean {
  const name = option.slice(2).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (new RegExp(`(?<![A-Za-z0-9_-])--${name}(?![A-Za-z0-9_-])`).test(help)) return true;
  return bare && new RegExp(`^${name}\\s`, "m").test(help);
}

/** The outcome of checking one skill. */
export interface HelpReport {
  /** Set when the check could not run: the program is not installed. */
  skipped?: string;
  /** `example N: --opt is not in the help of <program> (<commands>)`. */
  missing: string[];
  /** Options listed in `notInHelp` that the help does have: the exception is stale. */
  stale: string[];
  /** Options listed in `notInHelp` and missing as expected, with the reason. */
  excused: string[];
  /** How many option uses were checked. */
  checked: number;
}

/**
 * Whether dpkg knows `pkg` is not installed; `false` where there is no dpkg to ask (not Debian),
 * so the help check still runs there.
 */
export async function debianPackageMissing(pkg: string): Promise<boolean> {
  const status = await runHelp(`dpkg-query -W -f=\${Status} ${pkg}`);
  return status !== undefined && !/\binstall ok installed\b/.test(status);
}

/** Check every long option of `skill` against the help its entry names. */
export async function checkSkillHelp(skill: Skill, entry: HelpEntry): Promise<HelpReport> {
  const uses = optionUses(skill, entry);
  // A program whose extra package is missing prints an error instead of its help (mosdepth
  // without libhts.so): say what to install rather than report every option missing.
  for (const pkg of entry.extra ?? []) {
    if (await debianPackageMissing(pkg)) {
      const skipped = `the Debian package ${pkg} is not installed (${entry.package} needs it)`;
      return { skipped, missing: [], stale: [], excused: [], checked: 0 };
    }
  }
  // Start every help command up front, a few at a time (Picard starts a JVM for each tool).
  const cache = new Map<string, Promise<string | undefined>>();
  const commands = [...new Set(uses.flatMap((use) => use.help))];
  const outputs = mapLimit(commands, 3, (command) => runHelp(command));
  commands.forEach((command, i) => cache.set(command, outputs.then((all) => all[i])));
  const pages = new Map<string, Promise<string>>();
  const man = (name: string) => {
    if (!pages.has(name)) pages.set(name, manText(name));
    return pages.get(name)!;
  };
  const missing: string[] = [];
  const stale = new Set<string>();
  const excused = new Set<string>();
  for (const use of uses) {
    const texts = await Promise.all(use.help.map((command) => cache.get(command)!));
    if (texts.every((t) => t === undefined)) {
      const what = entry.package ? `; install the Debian package ${entry.package}` : "";
      const skipped = `${use.help[0]?.split(" ")[0]} is not installed${what}`;
      return { skipped, missing, stale: [], excused: [], checked: 0 };
    }
    const manuals = await Promise.all(
      (entry.man ?? []).map((name) => man(name.replaceAll("{sub}", use.sub))),
    );
    const help = [...texts, ...manuals].join("\n");
    const option = entry.aliases?.[use.option] ?? use.option;
    const found = helpHasOption(help, option, entry.bare);
    const reason = entry.notInHelp?.[use.option];
    if (reason !== undefined) {
      if (found) stale.add(`${use.option} is in the help now; drop it from notInHelp`);
      else excused.add(`${use.option}: ${reason}`);
    } else if (!found) {
      missing.push(
        `example ${use.example}: ${use.option} is not in the help of ${use.program} (${
          use.help.join("; ")
        })`,
      );
    }
  }
  return { missing, stale: [...stale], excused: [...excused], checked: uses.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const entries = await helpEntries();
  for (const file of process.argv.slice(2)) {
    const { skill } = await parseSkill(await readFile(file, "utf8"));
    const entry = entries[skill.name];
    if (!entry?.package) {
      console.log(`${file}: no Debian package mapped (${entry?.reason ?? "no entry"})`);
      continue;
    }
    const report = await checkSkillHelp(skill, entry);
    console.log(
      `${file}: ${
        report.skipped ?? `${report.checked} option uses, ${report.missing.length} missing`
      }`,
    );
    for (const line of [...report.missing, ...report.stale]) console.log(`  ${line}`);
    for (const line of report.excused) console.log(`  not in this help: ${line}`);
  }
}
