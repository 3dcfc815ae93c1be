// Private: bundle an entry module's source for a browser the way an app bundler would
// (esbuild: ESM, code splitting, minified), in memory. Used by check_bundle.ts and bench/bundle.ts.

import { build, type Metafile, type OutputFile } from "esbuild";
import { resolve } from "node:path";

/** The chunks of a browser build and esbuild's metafile. */
export interface BrowserBundle {
  outputFiles: OutputFile[];
  metafile: Metafile;
}

/** Bundle `contents` (module source whose imports resolve from the repository root). */
export async function bundleForBrowser(contents: string): Promise<BrowserBundle> {
  const result = await build({
    stdin: { contents, resolveDir: resolve("."), loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    minify: true,
    write: false,
    outdir: "out",
    metafile: true,
    logLevel: "error",
  });
  return { outputFiles: result.outputFiles, metafile: result.metafile };
}

/** A chunk's name relative to the output folder. */
export function chunkName(file: OutputFile): string {
  return file.path.slice(file.path.lastIndexOf("/out/") + 5);
}
