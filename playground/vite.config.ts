// Vite config of the playground: Svelte 5, and the library's public entries by their package names.
import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { fileURLToPath } from "node:url";

const lib = (path: string) => fileURLToPath(new URL(`../lib/${path}`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [svelte()],
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
