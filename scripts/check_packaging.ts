// The npm package as a user gets it: `npm pack` (which builds dist/), install the tarball into a
// fresh Node project, then
//   1. import every export path in Node, and check the zero-config resolver and the built-ins;
//      run README.md's Node example as written in a default `npm init -y` project;
//   2. without the optional peer @modelcontextprotocol/sdk, `./server` still imports and
//      `serveSkills()` / `skillmux serve` say which package to install; with it, the server serves;
//      likewise `./ai-sdk` and `./langchain` without and with `ai` and `@langchain/core`;
//   3. run the bin (`npx skillmux --help`, `skillmux skill list`);
//   4. type-check a strict consumer (no skipLibCheck) under node16, bundler and node10 resolution.
//
//   node --import tsx scripts/check_packaging.ts      (run by scripts/test.sh)

import assert from "node:assert/strict";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { promisify } from "node:util";
import { blockAfter } from "./_markdown.ts";

const root = resolve(import.meta.dirname ?? ".", "..");
const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
  name: string;
  exports: Record<string, unknown>;
};
const entries = Object.keys(pkg.exports).map((key) => pkg.name + key.slice(1));
const run = promisify(execFile);
const started = performance.now();
const home = await mkdtemp(join(tmpdir(), "skillmux-pack-"));
const consumer = join(home, "consumer");
const env = { ...process.env, NO_COLOR: "1", npm_config_update_notifier: "false" };
const sh = (file: string, args: string[], cwd = consumer) =>
  execFileSync(file, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
/** Runs an ES module in the consumer project, the way a user's script would. */
const script = async (name: string, code: string) => {
  await writeFile(join(consumer, name), code);
  return sh(process.execPath, [name]);
};
const step = (what: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1)}s ${what}`);

try {
  await mkdir(consumer, { recursive: true });
  sh("npm", ["pack", "--silent", "--pack-destination", home], root);
  const tarball = (await readdir(home)).find((f) => f.endsWith(".tgz"));
  assert.ok(tarball, "npm pack wrote a tarball");
  step(`npm pack: ${tarball}`);

  await writeFile(join(consumer, "package.json"), '{ "type": "module", "private": true }\n');
  sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(home, tarball)]);
  const installed = sh("npm", ["ls", "--all", "--parseable"]).trim().split("\n").length - 1;
  assert.ok(
    !(await readdir(join(consumer, "node_modules"))).includes("@modelcontextprotocol"),
    "the MCP SDK is an optional peer: a plain install must not pull it",
  );
  step(`npm install <tarball>: ${installed} packages, no MCP SDK`);

  // 1. Every export path imports; the resolver and the built-ins work from the compiled code.
  const folders = {
    userDir: join(home, "user"),
    communityDir: join(home, "community"),
    configDir: join(home, "config"),
  };
  const imported = await script(
    "imports.mjs",
    `const entries = ${JSON.stringify(entries)};
for (const entry of entries) {
  const mod = await import(entry);
  if (Object.keys(mod).length === 0) throw new Error(entry + " exports nothing");
}
const { resolveSkill } = await import("${pkg.name}");
const { builtinSkillNames } = await import("${pkg.name}/resolve");
const { createFsStorage } = await import("${pkg.name}/fs");
const folders = ${JSON.stringify(folders)};
await createFsStorage({ root: folders.userDir }).set(
  "samtools.md",
  "---\\nname: samtools\\ndescription: My own samtools notes. Use when sorting.\\n---\\n",
);
console.log(JSON.stringify({
  entries: entries.length,
  samtools: (await resolveSkill("samtools", folders)).source,
  bcftools: (await resolveSkill("bcftools", folders)).source,
  builtins: (await builtinSkillNames()).length,
}));
`,
  );
  const got = JSON.parse(imported) as Record<string, number | string>;
  assert.deepEqual(got, {
    entries: entries.length,
    samtools: "user",
    bcftools: "builtin",
    builtins: got.builtins,
  });
  assert.ok(Number(got.builtins) > 0);
  step(
    `imported ${entries.length} entries in Node; user skills win over ${got.builtins} built-ins`,
  );

  // README.md's Node example, as written, in the project `npm init -y` makes (CommonJS by default).
  const initProject = join(home, "npm-init");
  await mkdir(initProject);
  sh("npm", ["init", "-y"], initProject);
  await symlink(join(consumer, "node_modules"), join(initProject, "node_modules"), "dir");
  const example = blockAfter(await readFile(join(root, "README.md"), "utf8"), "### Node", "js");
  await writeFile(join(initProject, "app.mjs"), example);
  const printed = sh(process.execPath, ["app.mjs"], initProject);
  assert.match(
    printed,
    /^samtools builtin\b/m,
    `README's app.mjs lists the built-ins:\n${printed}`,
  );
  assert.match(printed, /^builtin \S/m, `README's app.mjs resolves samtools:\n${printed}`);
  step("README.md's Node example runs as app.mjs in an `npm init -y` project");

  // 2. The server without and with its optional peer.
  const missing = await script(
    "server_missing.mjs",
    `const { serveSkills } = await import("${pkg.name}/server");
try { await serveSkills(); console.log("served"); } catch (error) { console.log(error.message); }
`,
  );
  const install = "npm install @modelcontextprotocol/sdk@";
  assert.match(missing, /@modelcontextprotocol\/sdk/, "the error names the package");
  assert.ok(missing.includes(install), `the error says how to install it: ${missing}`);
  const bin = join(consumer, "node_modules", ".bin", "skillmux");
  const serve = spawnSync(bin, ["serve"], {
    cwd: consumer,
    env,
    encoding: "utf8",
    timeout: 20_000,
  });
  assert.equal(serve.status, 1, "skillmux serve fails without the SDK");
  assert.ok(serve.stderr.includes(install), `skillmux serve says what to install: ${serve.stderr}`);
  // The repository's copy stands in for `npm install @modelcontextprotocol/sdk` (same range).
  await symlink(
    join(root, "node_modules", "@modelcontextprotocol"),
    join(consumer, "node_modules", "@modelcontextprotocol"),
  );
  const served = await script(
    "server.mjs",
    `const { serveSkills } = await import("${pkg.name}/server");
const { connect } = await import("${pkg.name}");
const server = await serveSkills();
try {
  const client = await connect({ name: "skills", url: server.url });
  const tools = (await client.listTools()).map((tool) => tool.name).sort();
  console.log(JSON.stringify({ tools }));
  await client.close();
} finally {
  await server.close();
}
`,
  );
  assert.deepEqual(
    JSON.parse(served).tools,
    ["get_skill", "read_skill_file", "search_skills"],
    served,
  );
  step("./server: clear error without the SDK, serves with it");

  // 2b. The framework adapters without and with their optional peers (ai, @langchain/core).
  const frameworks = (label: string) =>
    script(
      `frameworks_${label}.mjs`,
      `const { createCatalog } = await import("${pkg.name}");
const catalog = await createCatalog({
  functions: [{
    name: "lookup_sample",
    description: "Find a sample's FASTQ files by sample id",
    handler: ({ id }) => [id + "_R1.fastq.gz"],
  }],
});
const out = {};
for (const [entry, fn] of [["ai-sdk", "aiSdkTools"], ["langchain", "langchainTools"]]) {
  const mod = await import("${pkg.name}/" + entry);
  try {
    const made = await mod[fn]({ catalog, request: "the fastq files of sample S1" });
    out[entry] = Array.isArray(made.tools) ? made.tools.map((t) => t.name) : Object.keys(made.tools);
    await made.close();
  } catch (error) {
    out[entry] = error.message;
  }
}
console.log(JSON.stringify(out));
`,
    );
  const without = JSON.parse(await frameworks("missing"));
  assert.ok(String(without["ai-sdk"]).includes("npm install ai@"), without["ai-sdk"]);
  assert.ok(
    String(without.langchain).includes("npm install @langchain/core@"),
    without.langchain,
  );
  // The repository's copies stand in for `npm install ai @langchain/core`.
  await symlink(join(root, "node_modules", "ai"), join(consumer, "node_modules", "ai"));
  await symlink(
    join(root, "node_modules", "@langchain"),
    join(consumer, "node_modules", "@langchain"),
  );
  const withPeers = JSON.parse(await frameworks("present"));
  assert.deepEqual(
    withPeers,
    { "ai-sdk": ["lookup_sample"], langchain: ["lookup_sample"] },
    JSON.stringify(withPeers),
  );
  step("./ai-sdk and ./langchain: clear error without their peers, tools with them");

  // 3. The bin.
  assert.match(sh("npx", ["--no", "--", "skillmux", "--help"]), /Usage: skillmux <command>/);
  const listed = JSON.parse(
    sh(bin, [
      "skill",
      "list",
      "--json",
      "--user-dir",
      folders.userDir,
      "--community-dir",
      folders.communityDir,
      "--config-dir",
      folders.configDir,
    ]),
  ) as { skills: Array<{ name: string; source: string }> };
  assert.equal(listed.skills.find((s) => s.name === "samtools")?.source, "user");
  step("bin: npx skillmux --help, skillmux skill list");

  // 4. A strict TypeScript consumer of every entry, under each module resolution people use.
  await mkdir(join(consumer, "node_modules", "@types"), { recursive: true });
  await symlink(
    join(root, "node_modules", "@types", "node"),
    join(consumer, "node_modules", "@types", "node"),
  );
  await writeFile(
    join(consumer, "index.ts"),
    [
      `import { connect, resolveSkill, type Skill } from "${pkg.name}";`,
      `import { parseMcpServersJson, type JsonRpcRequest } from "${pkg.name}/mcp";`,
      `import { checkUrl } from "${pkg.name}/policy";`,
      `import { exampleCommandLine } from "${pkg.name}/skill";`,
      `import { defaultSkillFolders, type SkillFolderAccess } from "${pkg.name}/resolve";`,
      `import { isValidStorageKey } from "${pkg.name}/storage";`,
      `import { findTools, type KeywordIndex } from "${pkg.name}/catalog";`,
      `import { createToolDiscovery, type OpenAiTool } from "${pkg.name}/prompt";`,
      `import { createOpenAiModel, type LlmError } from "${pkg.name}/llm";`,
      `import { createFsStorage } from "${pkg.name}/fs";`,
      `import { createIndexedDbStorage } from "${pkg.name}/indexed-db";`,
      `import { createUnstorageStorage } from "${pkg.name}/unstorage";`,
      `import { createMultiUserRegistry } from "${pkg.name}/multi-user";`,
      `import { createStdioTransport } from "${pkg.name}/stdio";`,
      `import { installSkills } from "${pkg.name}/install";`,
      `import { serveSkills, type SkillsServer } from "${pkg.name}/server";`,
      `import { run } from "${pkg.name}/cli";`,
      "export async function main(): Promise<string> {",
      '  const skill: Skill = (await resolveSkill("samtools")).skill;',
      "  const server: SkillsServer = await serveSkills({ port: 0 });",
      '  const code: number = await run(["--help"], { stdout: () => {}, stderr: () => {} });',
      "  void [connect, createFsStorage, createIndexedDbStorage, createUnstorageStorage];",
      "  void [createMultiUserRegistry, createStdioTransport, installSkills, server, code];",
      "  void [parseMcpServersJson, checkUrl, exampleCommandLine, createOpenAiModel];",
      '  const request: JsonRpcRequest = { jsonrpc: "2.0", id: 1, method: "ping" };',
      "  const failure: LlmError | undefined = undefined;",
      "  void [request, failure];",
      "  void [defaultSkillFolders, isValidStorageKey, findTools, createToolDiscovery];",
      "  const layers: [SkillFolderAccess?, KeywordIndex?, OpenAiTool?] = [];",
      "  void layers;",
      "  return skill.name;",
      "}",
      "",
    ].join("\n"),
  );
  const tsc = join(root, "node_modules", ".bin", "tsc");
  const modes = {
    node16: { module: "node16", moduleResolution: "node16" },
    bundler: { module: "esnext", moduleResolution: "bundler" },
    node10: { module: "esnext", moduleResolution: "node10" },
  };
  // In parallel: each run checks @types/node and our .d.ts files again (no skipLibCheck).
  await Promise.all(
    Object.entries(modes).map(async ([name, resolution]) => {
      const config = `tsconfig.${name}.json`;
      await writeFile(
        join(consumer, config),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            ...resolution,
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            lib: ["ES2023", "DOM"],
            types: ["node"],
          },
          files: ["index.ts"],
        }),
      );
      const result = await run(tsc, ["-p", config], { cwd: consumer, env }).catch((e) => e);
      assert.ok(!(result instanceof Error), `tsc (${name} resolution) failed:\n${result.stdout}`);
    }),
  );
  step(`tsc: a strict consumer type-checks under ${Object.keys(modes).join(", ")} resolution`);
  console.log(
    `ok: packaging (${((performance.now() - started) / 1000).toFixed(1)}s): ${tarball} installs ` +
      `${installed} packages, imports ${entries.length} entries, bin runs, types resolve`,
  );
} finally {
  await rm(home, { recursive: true, force: true });
}
