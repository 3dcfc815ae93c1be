#!/usr/bin/env node
// `skillmux` from a clone of the repository, runnable from any folder: the TypeScript sources
// through tsx (a devDependency of the clone), else the build in dist/ (`npm run build`).
// Installed packages run dist/cli/main.js, their package.json "bin".
import { existsSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";

const sources = new URL("../lib/cli/main.ts", import.meta.url);
const dist = new URL("../dist/cli/main.js", import.meta.url);
let main = dist;
try {
  (await import("tsx/esm/api")).register();
  main = sources;
} catch {
  if (!existsSync(dist)) {
    process.stderr.write(
      "skillmux: this clone has neither its dependencies (npm install) nor a build (npm run build)\n",
    );
    process.exit(1);
  }
}
// main.ts runs when it is the program (process.argv[1]).
process.argv[1] = fileURLToPath(main);
await import(main.href);
