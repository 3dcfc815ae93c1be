// Run by parse_deno_env.test.ts under `deno run` without --allow-env: the
// `yaml` package's Node build reads process.env.LOG_TOKENS, which Deno refuses.
import { safeParseSkill } from "../../lib/skill/mod.ts";

const result = await safeParseSkill("---\nname: demo\ndescription: Demo. Use when testing.\n---\n");
/** What reading the environment does after the parse: still refused, as before it. */
let after = "readable";
try {
  void (globalThis as { process?: { env: Record<string, string> } }).process?.env.HOME;
} catch (error) {
  after = (error as Error).name;
}
console.log(JSON.stringify(
  result.success ? { success: true, name: result.skill.name, after } : {
    success: false,
    name: result.error.name,
    message: result.error.message,
    cause: (result.error.cause as Error | undefined)?.name,
  },
));
