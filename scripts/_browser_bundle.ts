// Private: bundle an entry module's source for a browser the way an app bundler would
// (esbuild: ESM, code splitting, minified), in memory. Used by check_bundle.ts and bench/bundle.ts.

import { build, type Metafile, type OutputFile } from "esbuild";
import { gzipSync } from "node:zlib";
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

/** The gzip -9 size of each chunk, by metafile path (`out/<name>`). */
export function gzipSizes(bundle: BrowserBundle): Map<string, number> {
  return new Map(
    bundle.outputFiles.map((
      f,
    ) => [`out/${chunkName(f)}`, gzipSync(f.contents, { level: 9 }).length]),
  );
}

/**
 * The chunks a page loads first: the entry (`entry.ts`, the stdin sourcefile) and every chunk it imports statically,
 * transitively. Lazily imported chunks (and what only they import) are left out.
 */
export function firstLoadChunks(bundle: BrowserBundle): Set<string> {
  const { outputs } = bundle.metafile;
  const entry = Object.keys(outputs).find((k) => outputs[k].entryPoint === "entry.ts")!;
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of outputs[file].imports) {
      if (imported.kind === "import-statement") walk(imported.path);
    }
  };
  walk(entry);
  return seen;
}
