// Private: how the user runs this command, for the hints it prints: `npm run cli --` from a clone
// of the repository (the TypeScript sources), `deno run -A jsr:@skillmux/core/cli` from JSR, and
// `skillmux` when installed from npm (the compiled dist/, where the bin is on PATH).

/** The command prefix that runs `skillmux` the way this module was loaded (`url`: its URL). */
export function cliInvocation(url: string = import.meta.url): string {
  if (/^(https?|jsr):/.test(url)) return "deno run -A jsr:@skillmux/core/cli";
  if (url.startsWith("file:") && url.endsWith(".ts") && !url.includes("/node_modules/")) {
    return "npm run cli --";
  }
  return "skillmux";
}
