// The JSR manifest (deno.json) and the npm manifest (package.json) declare one package.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";

interface DenoJson {
  name: string;
  version: string;
  license: string;
  exports: Record<string, string>;
  nodeModulesDir?: string;
}
interface PackageJson {
  name: string;
  version: string;
  license: string;
  exports: Record<string, { types: string; default: string }>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  scripts: Record<string, string>;
}

const read = async <T>(file: string): Promise<T> =>
  JSON.parse(await readFile(new URL(`../${file}`, import.meta.url), "utf8")) as T;
const deno = await read<DenoJson>("deno.json");
const pkg = await read<PackageJson>("package.json");

test("deno.json and package.json export the same keys", () => {
  assert.deepEqual(Object.keys(pkg.exports).sort(), Object.keys(deno.exports).sort());
});

test("each npm export is the compiled form of the JSR export", () => {
  for (const [key, jsr] of Object.entries(deno.exports)) {
    // Deno's "." is lib/mod.ts plus imports of its optional data that Deno sees (lib/mod_deno.ts).
    const source = key === "." ? "./lib/mod.ts" : jsr;
    const compiled = source.replace(/^\.\/lib\//, "./dist/").replace(/\.ts$/, "");
    assert.equal(pkg.exports[key].default, `${compiled}.js`, `export "${key}"`);
    assert.equal(pkg.exports[key].types, `${compiled}.d.ts`, `export "${key}"`);
  }
});

test("version and license agree; Deno reads npm's node_modules", () => {
  assert.equal(pkg.version, deno.version);
  assert.equal(pkg.license, deno.license);
  assert.equal(deno.nodeModulesDir, "manual");
  assert.equal(deno.name, "@skillmux/core");
  assert.equal(pkg.name, deno.name, "one name on JSR and npm (skillmux on npm is someone else's)");
  assert.deepEqual(Object.keys((pkg as { bin?: Record<string, string> }).bin ?? {}), ["skillmux"]);
});

test("every npm dependency is mapped to an npm: specifier in deno.json", async () => {
  const imports = (await read<{ imports: Record<string, string> }>("deno.json")).imports;
  for (const [name, range] of Object.entries(pkg.dependencies)) {
    assert.equal(imports[name], `npm:${name}@${range}`, `deno.json imports["${name}"]`);
  }
});

test("npm test runs the suite script CI runs", async () => {
  assert.equal(pkg.scripts.test, "bash scripts/test.sh");
  const ci = await readFile(new URL("../.ci/run", import.meta.url), "utf8");
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const command = ci.trim().split("\n").at(-1)!;
  assert.ok(readme.includes(command), `README shows the CI command "${command}"`);
});

test("the MCP SDK is an optional peer: only the server needs it, and it names the same range", async () => {
  const sdk = "@modelcontextprotocol/sdk";
  assert.equal(pkg.dependencies[sdk], undefined, "a client-only install must not pull the SDK");
  assert.equal(pkg.peerDependenciesMeta[sdk]?.optional, true);
  assert.equal(pkg.devDependencies[sdk], pkg.peerDependencies[sdk], "tests run against the SDK");
  const mod = await readFile(new URL("../lib/server/mod.ts", import.meta.url), "utf8");
  assert.match(mod, new RegExp(`range: "${pkg.peerDependencies[sdk].replace(/[\^.]/g, "\\$&")}"`));
  const importers: string[] = [];
  for (const file of await readdir(new URL("../lib/", import.meta.url), { recursive: true })) {
    if (!file.endsWith(".ts")) continue;
    const code = await readFile(new URL(`../lib/${file}`, import.meta.url), "utf8");
    if (new RegExp(`from "${sdk}`).test(code)) importers.push(file.replaceAll("\\", "/"));
  }
  assert.ok(importers.length > 0);
  assert.deepEqual(
    importers.filter((f) => !f.startsWith("server/")),
    [],
    "SDK imports outside server/",
  );
  // server/mod.ts loads the SDK lazily, so a missing SDK is a clear error from serveSkills().
  assert.doesNotMatch(mod, /^import (?!type)[^;]*from "\.\/(serve|_mcp|_sessions)\.ts"/m);
});

test("npm ci works anywhere: the lock file holds every optional (platform) package", async () => {
  // npm ci refuses a lock file that lacks an optional dependency of a locked package, even one for
  // another platform (deno's @deno/darwin-arm64, rollup's @rollup/rollup-win32-x64-msvc, ...).
  const lock = await read<{ packages: Record<string, { optionalDependencies?: object }> }>(
    "package-lock.json",
  );
  const locate = (from: string, name: string): string | undefined => {
    for (let base = from;;) {
      const key = `${base === "" ? "" : `${base}/`}node_modules/${name}`;
      if (key in lock.packages) return key;
      if (base === "") return undefined;
      const up = base.lastIndexOf("/node_modules/");
      base = up < 0 ? "" : base.slice(0, up);
    }
  };
  const missing = Object.entries(lock.packages).flatMap(([key, entry]) =>
    Object.keys(entry.optionalDependencies ?? {}).filter((name) => !locate(key, name))
      .map((name) => `${key} -> ${name}`)
  );
  assert.deepEqual(missing, [], "regenerate package-lock.json (see .ci/run and README)");
  assert.ok(locate("node_modules/deno", "@deno/win32-x64"), "deno's platform packages are locked");
});

test("TypeScript's node10 resolution finds the types of every entry (main, types, typesVersions)", () => {
  const node10 = pkg as PackageJson & {
    main: string;
    types: string;
    typesVersions: Record<string, Record<string, string[]>>;
  };
  assert.equal(node10.main, pkg.exports["."].default);
  assert.equal(node10.types, pkg.exports["."].types);
  const expected = Object.fromEntries(
    Object.entries(pkg.exports).filter(([key]) => key !== ".").map((
      [key, entry],
    ) => [key.slice(2), [entry.types]]),
  );
  assert.deepEqual(node10.typesVersions, { "*": expected });
});
