// The zero-config resolver's MCP server registry (lib/resolve/_fs_defaults.ts: config.toml under
// the config folder), with a real stdio server and real files: a stdio server there is started and
// listed; a config.toml that cannot be read, or is a folder, skips only the MCP servers with a
// diagnostic naming the file; an environment failing for another reason than a permission is an
// error of createDefaultSources. Zero-config folders and built-ins: default_sources.test.ts.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { createDefaultSources, createResolver } from "../../lib/mod.ts";
import { skillDoc } from "./_helpers.ts";

describe("the MCP servers of config.toml", () => {
  const EVERYTHING = new URL(
    "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    import.meta.url,
  ).pathname;

  let home: string;
  let userDir: string;
  const empty = () => join(home, "empty");

  before(async () => {
    home = await mkdtemp(join(tmpdir(), "skillmux-default-registry-"));
    userDir = join(home, "user");
    await mkdir(userDir, { recursive: true });
    await mkdir(empty(), { recursive: true });
    await writeFile(join(userDir, "samtools.md"), skillDoc("samtools", "Mine. Use when sorting."));
  });
  after(() => rm(home, { recursive: true, force: true }));

  const dispose = async (tiers: Awaited<ReturnType<typeof createDefaultSources>>) => {
    for (const s of tiers.flat()) await (s as { dispose?: () => Promise<void> }).dispose?.();
  };

  test("a stdio server in config.toml is started and listed", async () => {
    const configDir = join(home, "stdio");
    await mkdir(configDir, { recursive: true });
    await writeFile(
      join(configDir, "config.toml"),
      `[[mcp.servers]]\nname = "ev"\ncommand = ${JSON.stringify(process.execPath)}\n` +
        `args = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`,
    );
    const sources = await createDefaultSources({ userDir, communityDir: empty(), configDir });
    try {
      assert.deepEqual(sources.flat().map((s) => s.label), [
        "user",
        "community",
        "mcp:ev",
        "builtin",
      ]);
      const { skills, diagnostics } = await createResolver({ sources }).list();
      assert.deepEqual(
        diagnostics.filter((d) => d.source === "mcp:ev"),
        [],
        "connected over stdio",
      );
      assert.equal(skills.find((s) => s.name === "samtools")?.source, "user");
    } finally {
      await dispose(sources);
    }
  });

  test("a config.toml that cannot be read skips only the MCP servers, naming the file", async () => {
    const configDir = join(home, "linked");
    await mkdir(configDir, { recursive: true });
    const outside = join(home, "outside.toml");
    await writeFile(outside, `[[mcp.servers]]\nname = "far"\nurl = "http://127.0.0.1:9/mcp"\n`);
    await symlink(outside, join(configDir, "config.toml"));
    const sources = await createDefaultSources({ userDir, communityDir: empty(), configDir });
    assert.deepEqual(sources.flat().map((s) => s.label), ["user", "community", "mcp", "builtin"]);
    const resolver = createResolver({ sources });
    const hit = await resolver.resolve("samtools");
    assert.equal(hit.source, "user");
    const star = await resolver.resolve("star");
    assert.equal(star.source, "builtin");
    const [mcp] = star.diagnostics.filter((d) => d.source === "mcp");
    assert.ok(mcp, JSON.stringify(star.diagnostics));
    const prefix = `Cannot read the MCP server registry ${join(configDir, "config.toml")}: `;
    assert.ok(mcp.message.startsWith(prefix), mcp.message);
    assert.match(mcp.message, /is a symlink to .*outside the storage root/);
  });

  test("a config.toml that is a folder is reported, not read as no servers", async () => {
    const configDir = join(home, "folder");
    await mkdir(join(configDir, "config.toml"), { recursive: true });
    const sources = await createDefaultSources({ userDir, communityDir: empty(), configDir });
    const hit = await createResolver({ sources }).resolve("star");
    assert.equal(hit.source, "builtin");
    assert.deepEqual(hit.diagnostics.map((d) => [d.source, d.message]), [
      [
        "mcp",
        `Cannot read the MCP server registry ${join(configDir, "config.toml")}: it is a folder`,
      ],
    ]);
  });

  test("an environment that fails for another reason than a permission is an error", async () => {
    const env = new Proxy({}, {
      get(target, name, receiver) {
        if (typeof name !== "string" || !/^[A-Z_]+$/.test(name)) {
          return Reflect.get(target, name, receiver);
        }
        throw new TypeError(`the environment cannot give ${name}`);
      },
    });
    await assert.rejects(createDefaultSources({ env }), /^TypeError: the environment cannot give/);
  });
});
