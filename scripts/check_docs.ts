// Every public export has JSDoc with an @example (deno doc --json over each entry point).
//
//   npx deno run -A scripts/check_docs.ts

import { execFileSync } from "node:child_process";

interface DocDeclaration {
  kind: string;
  location: { filename: string; line: number };
  jsDoc?: { doc?: string; tags?: Array<{ kind: string }> };
}
interface DocFile {
  symbols: Array<{ name: string; declarations: DocDeclaration[] }>;
}

const exportsMap = JSON.parse(
  execFileSync("node", ["-p", "JSON.stringify(require('./deno.json').exports)"], {
    encoding: "utf8",
  }),
) as Record<string, string>;
const deno = "node_modules/.bin/deno";
const missing: string[] = [];
let checked = 0;
for (const entry of Object.values(exportsMap)) {
  const out = execFileSync(deno, ["doc", "--json", entry], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const files = (JSON.parse(out) as { nodes: Record<string, DocFile> }).nodes;
  for (const file of Object.values(files)) {
    for (const symbol of file.symbols) {
      for (const declaration of symbol.declarations) {
        // Interfaces and types document their members; functions, classes and constants show use.
        if (!["function", "class", "variable"].includes(declaration.kind)) continue;
        checked++;
        if (declaration.jsDoc?.tags?.some((t) => t.kind === "example")) continue;
        const { filename, line } = declaration.location;
        missing.push(
          `${symbol.name} (${declaration.kind}) ${filename.replace(/^file:\/\/\//, "/")}:${line}`,
        );
      }
    }
  }
}
if (missing.length > 0) {
  console.error(
    `${missing.length} of ${checked} exports have no @example:\n  ${
      [...new Set(missing)].join("\n  ")
    }`,
  );
  process.exit(1);
}
console.log(`ok: all ${checked} exported functions, classes and constants have an @example`);
