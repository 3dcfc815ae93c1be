// Vite config of the playground: Svelte 5, and the library's public entries by their package names.
import { defineConfig, type Plugin } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { fileURLToPath } from "node:url";

const lib = (path: string) => fileURLToPath(new URL(`../lib/${path}`, import.meta.url));

// The lazy chunks the first view (Skills: resolver, MCP listing, skill parsing, the built-in
// texts) needs, by the library modules they hold. Without this the browser discovers them in ~7
// waves (each chunk's imports seen only once it ran); with it they load at once, in parallel.
// The tokenizer tables, the LLM adapters and the other views stay lazy. `bench/playground.ts`
// prints the waves one visit still has.
const FIRST_VIEW = new Set([
  "_builtin_skills.ts",
  "_connect.ts",
  "_display.ts",
  "_display_html.ts",
  "_displayable.ts",
  "_list.ts",
  "_parse.ts",
  "_parse_cache.ts",
  "_permission.ts",
  "_query.ts",
  "_read.ts",
  "_store.ts",
  "_text.ts",
  "_toml_store.ts",
  "_view.ts",
  "_yaml.ts",
  "redact.ts",
]);

function preloadFirstView(): Plugin {
  return {
    name: "skillmux-preload-first-view",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const wanted = Object.values(ctx.bundle ?? {}).filter((chunk) =>
          chunk.type === "chunk" && !chunk.isEntry && chunk.moduleIds.some((id) =>
            (/\/lib\//.test(id) && FIRST_VIEW.has(id.split("/").at(-1)!)) || /\/node_modules\/yaml\//.test(id)
          )
        );
        return {
          html,
          tags: wanted.map((chunk) => ({
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
  plugins: [svelte(), preloadFirstView()],
  resolve: {
    alias: [
      { find: /^@skillmux\/core$/, replacement: lib("mod.ts") },
      { find: /^@skillmux\/core\/indexed-db$/, replacement: lib("storage/indexed_db.ts") },
      { find: /^@skillmux\/core\/oauth$/, replacement: lib("mcp/auth/mod.ts") },
    ],
  },
  // The tokenizer tables (o200k, ~2 MB) are one lazy chunk, loaded only to count tokens.
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 2_500 },
  logLevel: "warn",
});
