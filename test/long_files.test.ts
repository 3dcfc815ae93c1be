// A lib/ file over 300 lines says at its top why it is that long (docs/architecture.md, "File
// names"): a `// Long because: …` comment before its first line of code, so a long file is a
// decision a reader can weigh, not an accident; and none passes 400 lines.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const LIB = fileURLToPath(new URL("../lib/", import.meta.url));
const LONG = 300;

/** The comment lines above a file's first line of code (line comments and JSDoc blocks). */
function leadingComments(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const line of lines) {
    const s = line.trim();
    if (inBlock) {
      out.push(s);
      if (s.includes("*/")) inBlock = false;
    } else if (s.startsWith("/*")) {
      out.push(s);
      inBlock = !s.includes("*/");
    } else if (s.startsWith("//")) out.push(s);
    else if (s !== "") break;
  }
  return out;
}

test(`every lib/ file over ${LONG} lines gives a reason at its top`, async () => {
  const missing: string[] = [];
  let long = 0;
  for (const file of await readdir(LIB, { recursive: true })) {
    if (!String(file).endsWith(".ts")) continue;
    const lines = (await readFile(join(LIB, String(file)), "utf8")).split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (lines.length <= LONG) continue;
    long++;
    if (!leadingComments(lines).some((l) => l.startsWith("// Long because: "))) {
      missing.push(`lib/${file} (${lines.length} lines)`);
    }
  }
  assert.ok(long > 0, "no file over the limit: the walk found the files");
  assert.deepEqual(missing, [], "add a `// Long because: …` comment at the top (or split it)");
});

test("the reason is found only above the code", () => {
  const reason = "// Long because: one class.";
  assert.ok(
    leadingComments(["/**", " * Docs.", " */", "", reason, "", "import x;"]).includes(reason),
  );
  assert.ok(!leadingComments(["import x;", reason]).includes(reason));
});

test("no lib/ file passes 400 lines (split it by concept)", async () => {
  const over: string[] = [];
  let files = 0;
  for (const file of await readdir(LIB, { recursive: true })) {
    if (!String(file).endsWith(".ts")) continue;
    files++;
    const lines = (await readFile(join(LIB, String(file)), "utf8")).split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (lines.length > 400) over.push(`lib/${file} (${lines.length} lines)`);
  }
  assert.ok(files > 100, `read ${files} files`);
  assert.deepEqual(over, []);
});
