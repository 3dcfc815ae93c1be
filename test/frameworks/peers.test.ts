// The AI SDK and LangChain are optional peers of the npm package, like the MCP SDK for ./server:
// a client-only install pulls neither, the tests run against the declared ranges, and each
// entry's install hint names the same range as package.json.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

const read = async (path: string) =>
  JSON.parse(await readFile(new URL(`../../${path}`, import.meta.url), "utf8"));

test("ai and @langchain/core are optional peers, with the range each entry names", async () => {
  const pkg = await read("package.json");
  const deno = await read("deno.json");
  for (
    const [name, file] of [
      ["ai", "lib/frameworks/ai_sdk.ts"],
      ["@langchain/core", "lib/frameworks/langchain.ts"],
    ]
  ) {
    assert.equal(pkg.dependencies[name], undefined, `${name}: not a dependency`);
    assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name}: optional peer`);
    assert.ok(pkg.devDependencies[name], `${name}: tests run against it`);
    const code = await readFile(new URL(`../../${file}`, import.meta.url), "utf8");
    assert.ok(
      code.includes(`name: "${name}", range: "${pkg.peerDependencies[name]}"`),
      `${file} names ${name}@${pkg.peerDependencies[name]}`,
    );
    assert.doesNotMatch(code, new RegExp(`^import (?!type)[^;]*from "${name}`, "m"), "lazy");
  }
  assert.equal(deno.exports["./ai-sdk"], "./lib/frameworks/ai_sdk.ts");
  assert.equal(deno.exports["./langchain"], "./lib/frameworks/langchain.ts");
  assert.match(deno.imports.ai, /^npm:ai@\^7\./);
});
