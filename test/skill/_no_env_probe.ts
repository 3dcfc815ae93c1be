// Run by parse_deno_env.test.ts under `deno run` without --allow-env: the
// `yaml` package's Node build reads process.env.LOG_TOKENS, which Deno refuses.
import { safeParseSkill } from "../../lib/skill/mod.ts";

const result = await safeParseSkill("---\nname: demo\ndescription: Demo. Use when testing.\n---\n");
console.log(JSON.stringify(
  result.success ? { success: true } : {
    success: false,
    name: result.error.name,
    message: result.error.message,
    cause: (result.error.cause as Error | undefined)?.name,
  },
));
