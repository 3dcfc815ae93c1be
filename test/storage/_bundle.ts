// A child-process script as one plain ES module (esbuild, platform node), so that many children
// start in milliseconds instead of compiling TypeScript each time.
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { makeTempDir } from "./_tmp.ts";

/** Bundle the script at `entry` (a file URL) into a fresh temp folder; the bundle's path. */
export async function bundleScript(entry: URL): Promise<string> {
  const outfile = path.join(await makeTempDir(), `${path.basename(entry.pathname, ".ts")}.mjs`);
  await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "silent",
  });
  return outfile;
}
