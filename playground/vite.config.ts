// Vite config of the playground: Svelte 5, and the library's public entries by their package names.
import { defineConfig, type Plugin } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const lib = (path: string) => fileURLToPath(new URL(`../lib/${path}`, import.meta.url));

const INDEX = "virtual:builtin-index";

/**
 * `virtual:builtin-index`: what the Skills view shows of each built-in (name, description,
 * digest, location) from the library's generated summaries, a ~20 kB gzip chunk; the full
 * summaries (keywords for ranking, ~90 kB) and texts (~185 kB) load only where needed.
 */
function builtinIndex(): Plugin {
  return {
    name: "skillmux-builtin-index",
    resolveId: (id) => (id === INDEX ? `\0${INDEX}` : undefined),
    async load(id) {
      if (id !== `\0${INDEX}`) return;
      const file = lib("resolve/_builtin_summaries.json");
      this.addWatchFile(file);
      const { names, summaries } = JSON.parse(await readFile(file, "utf8")) as {
        names: string[];
        summaries: Array<Record<string, unknown>>;
      };
      const light = summaries.map(({ name, description, digest, location }) => ({ name, description, digest, location }));
      return `export default JSON.parse(${JSON.stringify(JSON.stringify({ names, summaries: light }))});`;
    },
  };
}

// The lazy chunks the first view (Skills: resolver, MCP listing, the built-ins' index) needs, by the library modules they hold. Without this the browser discovers them in ~7
// waves (each chunk's imports seen only once it ran); with it they load at once, in parallel.
// The tokenizer tables, the LLM adapters and the other views stay lazy. `bench/playground.ts`
// prints the waves one visit still has.
const FIRST_VIEW = new Set([
  "_bounded_cache.ts",
  "_connect.ts",
  "_digest.ts",
  "_display.ts",
  "_display_html.ts",
  "_displayable.ts",
  "_list.ts",
  "_parse.ts",
  "_parse_cache.ts",
  "_permission.ts",
  "_pool.ts",
  "_query.ts",
  "_read.ts",
  "_read_file.ts",
  "_store.ts",
  "_text.ts",
  "_text_clean.ts",
  "_toml_store.ts",
  "_view.ts",
  "connect_target.ts",
  "display.ts",
  "displayable.ts",
  "redact.ts",
  "resource_bytes.ts",
]);

function preloadFirstView(): Plugin {
  return {
    name: "skillmux-preload-first-view",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === "chunk");
        const named = chunks.filter((chunk) =>
          !chunk.isEntry && chunk.moduleIds.some((id) =>
            (/\/lib\//.test(id) && FIRST_VIEW.has(id.split("/").at(-1)!)) || id === `\0${INDEX}`
          )
        );
        // What those chunks import statically loads with them: preload it too, so that a module
        // split into a new chunk (one file becoming several) is not left to a second wave.
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const wanted = new Set(named);
        for (const chunk of wanted) {
          for (const name of chunk.imports) {
            const dep = byName.get(name);
            if (dep && !dep.isEntry) wanted.add(dep);
          }
        }
        return {
          html,
          tags: [...wanted].map((chunk) => ({
            tag: "link",
            attrs: { rel: "modulepreload", crossorigin: "", href: `./${chunk.fileName}` },
            injectTo: "head" as const,
          })),
        };
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [svelte(), builtinIndex(), preloadFirstView()],
  resolve: {
    alias: [
      { find: /^@skillmux\/core$/, replacement: lib("mod.ts") },
      { find: /^@skillmux\/core\/mcp$/, replacement: lib("mcp/mod.ts") },
      { find: /^@skillmux\/core\/policy$/, replacement: lib("mcp/policy/mod.ts") },
      { find: /^@skillmux\/core\/skill$/, replacement: lib("skill/mod.ts") },
      { find: /^@skillmux\/core\/resolve$/, replacement: lib("resolve/mod.ts") },
      { find: /^@skillmux\/core\/catalog$/, replacement: lib("catalog/mod.ts") },
      { find: /^@skillmux\/core\/llm$/, replacement: lib("catalog/llm/llm.ts") },
      { find: /^@skillmux\/core\/indexed-db$/, replacement: lib("storage/indexed_db.ts") },
      { find: /^@skillmux\/core\/oauth$/, replacement: lib("mcp/auth/mod.ts") },
      { find: /^@skillmux\/core\/directory$/, replacement: lib("mcp/directory/mod.ts") },
      { find: /^@skillmux\/core\/tokenizer$/, replacement: lib("tokenizer/mod.ts") },
    ],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Browsers with import attributes (`import(url, { with: { type: "json" } })`), written as
    // `with` (importAttributesKey below): at es2022 esbuild drops the attribute, and Rollup
    // writes `assert` by default, which Chromium no longer reads; either way the library's
    // built-in tables, loaded as JSON modules, failed as scripts of MIME type application/json
    // (two console errors, then fetched again).
    target: ["chrome123", "edge123", "firefox138", "safari17.2"],
    chunkSizeWarningLimit: 2_500,
    rollupOptions: {
      output: {
        importAttributesKey: "with",
        // The tokenizer (`@skillmux/core/tokenizer`: o200k ranks, ~2 MB) is one lazy chunk named
        // o200k, loaded only to count tokens (Request → prompt).
        manualChunks: (id) => (/\/lib\/tokenizer\//.test(id) ? "o200k" : undefined),
      },
    },
  },
  logLevel: "warn",
});
