// Private: bundle "." into ONE file the way a bundler without code splitting does (esbuild,
// --bundle --splitting=false, ESM, minified) for a browser or for Node, in memory. Used by
// check_bundle.ts: such a bundle must not inline the large optional data (the o200k ranks of
// ./tokenizer, the built-in skill texts of ./builtin-skills), which "." loads by URL at run time.
// For a browser it swaps modules as package.json "browser" tells a user's bundler to (there from
// dist/*.js to dist/*.js, here from the lib/*.ts they are built from).

import { build, type Plugin } from "esbuild";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { resolve } from "node:path";

/** package.json "browser", read as lib/ sources: the modules a browser bundle swaps. */
export function browserSwaps(): Map<string, string> {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const source = (file: string) =>
    resolve(file.replace(/^\.\/dist\//, "lib/").replace(/\.js$/, ".ts"));
  return new Map(
    Object.entries(pkg.browser ?? {}).map(([from, to]) => [source(from), source(String(to))]),
  );
}

/** The esbuild plugin that makes those swaps. */
function browserField(): Plugin {
  const swaps = browserSwaps();
  return {
    name: "browser-field",
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => {
        const to = swaps.get(resolve(args.resolveDir, args.path));
        return to === undefined ? undefined : { path: to };
      });
    },
  };
}

/** A one-file bundle of an entry's source: its code and its gzip -9 size. */
export interface OneFile {
  code: Uint8Array;
  text: string;
  gzip: number;
}

/** Bundle `contents` (module source whose imports resolve from the repository root) into one file. */
export async function bundleOneFile(
  contents: string,
  platform: "browser" | "node",
): Promise<OneFile> {
  const result = await build({
    stdin: { contents, resolveDir: resolve("."), loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    splitting: false,
    format: "esm",
    platform,
    minify: true,
    write: false,
    outfile: "out.js",
    logLevel: "error",
    plugins: platform === "browser" ? [browserField()] : [],
  });
  const [file] = result.outputFiles;
  return {
    code: file.contents,
    text: file.text,
    gzip: gzipSync(file.contents, { level: 9 }).length,
  };
}
