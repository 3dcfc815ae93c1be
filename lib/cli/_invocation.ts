// Private: how the user runs this command, for the hints it prints and the host configuration of
// `serve --print-config` — one way, and one that works on this machine:
//
// - JSR: `deno run -A jsr:@skillmux/core/cli`;
// - npx from the registry (its cache, `_npx/`): `npx -y -p @skillmux/core skillmux`;
// - a global install (`…/lib/node_modules/`): `skillmux`, on PATH;
// - a project's install (from the registry or a packed tarball): `npx skillmux`, in that project;
// - a clone (the TypeScript sources): `npm run cli --` when run that way, else the clone's
//   `bin/skillmux.mjs` by its absolute path (it runs from any folder);
// - a clone's build run directly (`node dist/cli/main.js`): that file by its absolute path.

import process from "node:process";
import { fileURLToPath } from "node:url";

type Where = "jsr" | "npx" | "global" | "project" | "clone" | "build";

/** How the module at `url` was installed. */
function where(url: string): Where {
  if (/^(https?|jsr):/.test(url)) return "jsr";
  const path = url.replace(/\\/g, "/");
  if (path.includes("/_npx/")) return "npx";
  if (/\/lib\/node_modules\/|\/npm\/node_modules\//.test(path)) return "global";
  if (path.includes("/node_modules/")) return "project";
  return path.endsWith(".ts") ? "clone" : "build";
}

/** The clone's root, from this module's URL (`…/lib/cli/_invocation.ts` or `…/dist/cli/…`). */
function root(url: string): string {
  return fileURLToPath(new URL("../../", url)).replace(/[\\/]$/, "");
}

const isDeno = () => "Deno" in globalThis;

/** The command prefix that runs `skillmux` the way this module was loaded (`url`: its URL). */
export function cliInvocation(
  url: string = import.meta.url,
  env: Record<string, string | undefined> = process.env,
): string {
  switch (where(url)) {
    case "jsr":
      return "deno run -A jsr:@skillmux/core/cli";
    case "npx":
      return "npx -y -p @skillmux/core skillmux";
    case "global":
      return "skillmux";
    case "project":
      return "npx skillmux";
    case "clone":
      if (env.npm_lifecycle_event === "cli") return "npm run cli --";
      return isDeno()
        ? `deno run -A ${root(url)}/lib/cli/main.ts`
        : `${root(url)}/bin/skillmux.mjs`;
    case "build":
      return `node ${root(url)}/dist/cli/main.js`;
  }
}

/**
 * The program and arguments that run `skillmux <args>` on this machine, for a host that starts it
 * without a shell (`serve --print-config`): npx from the registry when it was run that way
 * (JSR: deno), else this runtime and this installation's file by absolute path.
 */
export function cliCommand(
  args: readonly string[],
  url: string = import.meta.url,
): { command: string; args: string[] } {
  const kind = where(url);
  if (kind === "jsr") {
    return { command: "deno", args: ["run", "-A", "jsr:@skillmux/core/cli", ...args] };
  }
  if (kind === "npx") {
    // The server needs `@modelcontextprotocol/sdk`, an optional peer npx would not install; `-y`
    // because a host cannot answer npx's install prompt.
    const npx = ["-y", "-p", "@skillmux/core", "-p", "@modelcontextprotocol/sdk", "skillmux"];
    return { command: "npx", args: [...npx, ...args] };
  }
  const runtime = process.execPath;
  if (isDeno()) {
    const main = fileURLToPath(new URL(url.endsWith(".ts") ? "./main.ts" : "./main.js", url));
    return { command: runtime, args: ["run", "-A", main, ...args] };
  }
  const script = kind === "clone"
    ? `${root(url)}/bin/skillmux.mjs`
    : fileURLToPath(new URL("./main.js", url));
  return { command: runtime, args: [script, ...args] };
}
