/**
 * Serve a TypeScript entry to a real browser: bundle it with esbuild (`platform: "browser"`,
 * `format: "esm"`, in memory) and serve it with an `index.html` from a `node:http` server on
 * 127.0.0.1, port 0. Reusable by every browser test:
 *
 * ```ts
 * const served = await serveBundle("test/browser/_my_page.ts");
 * await page.goto(served.url);
 * // ...
 * await served.close();
 * ```
 *
 * @module
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { build } from "esbuild";
import { readFile } from "node:fs/promises";

/** Options of {@linkcode serveBundle}. */
export interface ServeBundleOptions {
  /** The page's `<title>`; the entry's file name by default. */
  title?: string;
  /** Extra HTML placed in `<body>` before the script. */
  body?: string;
  /** Extra files to serve, by URL path (`"/fixture.json"`) → content. */
  files?: Record<string, string | Uint8Array>;
  /** `define` replacements passed to esbuild (`{ "process.env.X": '"y"' }`). */
  define?: Record<string, string>;
  /**
   * Split lazily imported code into chunks the page fetches at first use, as an app bundler
   * does (default `false`: one file, lazy imports inlined).
   */
  splitting?: boolean;
}

/** A running bundle server. */
export interface ServedBundle {
  /** The page URL, e.g. `http://127.0.0.1:40123/`. */
  url: string;
  /** The server's origin, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  /** Stop the server and drop open connections. */
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".md": "text/markdown; charset=utf-8",
};

/**
 * Bundle `entryPath` (relative to the cwd, or absolute) and serve it as `/bundle.js` under an
 * `index.html` at `/`. Build errors reject. Close the server when done.
 */
export async function serveBundle(
  entryPath: string,
  options: ServeBundleOptions = {},
): Promise<ServedBundle> {
  const outdir = path.resolve("/__bundle__");
  const result = await build({
    entryPoints: [path.resolve(entryPath)],
    entryNames: "bundle",
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: options.splitting ?? false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    sourcemap: "inline",
    write: false,
    outdir,
    logLevel: "silent",
    define: options.define,
  });
  const files = new Map<string, string | Uint8Array>();
  for (const file of result.outputFiles) {
    files.set(`/${path.relative(outdir, file.path).split(path.sep).join("/")}`, file.contents);
  }
  const css = files.has("/bundle.css") ? '<link rel="stylesheet" href="/bundle.css">' : "";
  const title = escapeHtml(options.title ?? path.basename(entryPath));
  files.set(
    "/index.html",
    `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title>${css}</head>` +
      `<body>${options.body ?? ""}<script type="module" src="/bundle.js"></script></body></html>\n`,
  );
  // The built-in skills are a JSON file the library loads by URL beside its module: an esbuild
  // app copies it beside its bundle and chunks (Vite emits it as an asset by itself).
  // Their listing summaries likewise (without them, the texts are loaded and parsed to list).
  for (const name of ["_builtin_skills.json", "_builtin_summaries.json"]) {
    const data = await readFile(path.resolve(`lib/resolve/${name}`));
    for (const dir of ["", "/chunks"]) files.set(`${dir}/${name}`, data);
  }
  for (const [urlPath, content] of Object.entries(options.files ?? {})) files.set(urlPath, content);

  const server = createServer((request, response) => {
    const urlPath = new URL(request.url ?? "/", "http://localhost").pathname;
    const content = files.get(urlPath === "/" ? "/index.html" : urlPath);
    if (content === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${urlPath}`);
      return;
    }
    const type = TYPES[path.extname(urlPath === "/" ? "/index.html" : urlPath)];
    response.writeHead(200, {
      "content-type": type ?? "application/octet-stream",
      "cache-control": "no-store",
    });
    response.end(content);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/`,
    origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
