// Private: bundle "." into ONE file the way a bundler without code splitting does (esbuild,
// --bundle --splitting=false, ESM, minified) for a browser or for Node, in memory. Used by
// check_bundle.ts: such a bundle must not inline the large optional data (the o200k ranks of
// ./tokenizer, the built-in skill texts of ./builtin-skills), which "." loads by URL at run time.

import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { resolve } from "node:path";

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
  });
  const [file] = result.outputFiles;
  return {
    code: file.contents,
    text: file.text,
    gzip: gzipSync(file.contents, { level: 9 }).length,
  };
}
