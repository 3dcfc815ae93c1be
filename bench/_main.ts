// Whether a bench file is the program being run: `import.meta.main` on Deno (and Node 24+), the
// script path on Node 20, where `import.meta.main` is undefined.
import process from "node:process";
import { fileURLToPath } from "node:url";

/** True when the module of `meta` is the entry point (`deno run` / `node --import tsx`). */
export function isMain(meta: ImportMeta): boolean {
  return meta.main ?? process.argv[1] === fileURLToPath(meta.url);
}
