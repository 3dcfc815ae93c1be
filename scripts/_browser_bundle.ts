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

/** One module of the first load: its minified bytes and what leaving it out would take off. */
export interface FirstLoadModule {
  /** The module's path, as esbuild names it. */
  path: string;
  /** Its own minified bytes in the first-load chunks. */
  bytes: number;
  /** Its bytes plus those of every module only it brings in (what a lazy import of it saves). */
  dominated: number;
  /** The first-load modules that import it statically. */
  importers: string[];
}

/**
 * The modules of the first load, largest `dominated` first: for each, the minified bytes that
 * would leave the first load if it were imported lazily everywhere (it and everything reachable
 * only through it). Sizes are before gzip; the ratio is roughly 2.3 : 1 here.
 */
export function firstLoadModules(bundle: BrowserBundle): FirstLoadModule[] {
  const { inputs, outputs } = bundle.metafile;
  const bytes = new Map<string, number>();
  for (const chunk of firstLoadChunks(bundle)) {
    for (const [path, { bytesInOutput }] of Object.entries(outputs[chunk].inputs)) {
      bytes.set(path, (bytes.get(path) ?? 0) + bytesInOutput);
    }
  }
  const statics = (path: string) =>
    (inputs[path]?.imports ?? []).filter((i) => i.kind === "import-statement" && !i.external)
      .map((i) => i.path);
  const reach = (without?: string) => {
    const seen = new Set<string>();
    const stack = ["entry.ts"];
    while (stack.length > 0) {
      const path = stack.pop()!;
      if (path === without || seen.has(path)) continue;
      seen.add(path);
      stack.push(...statics(path));
    }
    return seen;
  };
  const all = reach();
  const sum = (paths: Iterable<string>) => [...paths].reduce((n, p) => n + (bytes.get(p) ?? 0), 0);
  return [...all].filter((path) => path !== "entry.ts").map((path) => {
    const left = reach(path);
    return {
      path,
      bytes: bytes.get(path) ?? 0,
      dominated: sum([...all].filter((p) => !left.has(p))),
      importers: [...all].filter((p) => statics(p).includes(path)),
    };
  }).sort((a, b) => b.dominated - a.dominated);
}
