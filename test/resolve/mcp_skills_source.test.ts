// The MCP skill source on a server with the skills extension (serveSkills): verified loads,
// per-origin names (`server:skill`), shadows named by resolve(), remote allowed-tools kept apart,
// and a list-changed notification dropping the cached listing (counted in requests).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createBuiltinSource } from "../../lib/resolve/builtin_source.ts";
import { createMcpSkillSource, type McpSkillSource } from "../../lib/resolve/mcp_source.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { skillDoc } from "./_helpers.ts";
import { within } from "../_wait.ts";

let dir: string;
let server: SkillsServer;
const log: string[] = [];
const sources: McpSkillSource[] = [];
const source = (name: string, options: Parameters<typeof createMcpSkillSource>[1] = {}) => {
  const created = createMcpSkillSource({ name, url: server.url }, options);
  sources.push(created);
  return created;
};
const count = (method: string) => log.filter((line) => line.split(" ")[2] === method).length;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillmux-mcp-skills-"));
  await writeFile(
    join(dir, "samtools.md"),
    "---\nname: samtools\ndescription: Team notes on samtools. Use when sorting BAMs.\n" +
      "allowed-tools: Bash\n---\n\nBody\n",
  );
  server = await serveSkills({ folder: dir, sessions: true, log: (line) => log.push(line) });
});
after(async () => {
  await Promise.all(sources.map((s) => s.dispose()));
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("MCP skill source with skills/list", () => {
  test("the winner names what it shadows; allowed-tools are requested, not granted", async () => {
    const resolver = createResolver({ sources: [[source("team")], createBuiltinSource()] });
    const hit = await resolver.resolve("samtools");
    assert.deepEqual([hit.source, hit.location], ["mcp:team", "skill://samtools/SKILL.md"]);
    assert.deepEqual(hit.shadows, ["builtin"]);
    assert.deepEqual([hit.skill.allowedTools, hit.requestedAllowedTools], [[], ["Bash"]]);
    assert.ok(count("skills/list") >= 1 && count("resources/read") >= 1);
  });

  test("server:name reaches one origin directly", async () => {
    const resolver = createResolver({ sources: [[source("team2")], createBuiltinSource()] });
    assert.equal((await resolver.resolve("builtin:samtools")).source, "builtin");
    assert.equal((await resolver.resolve("team2:samtools")).source, "mcp:team2");
    const missing = await resolver.resolve("nobody:samtools").catch((e) => e);
    assert.equal(missing.name, "SkillNotFoundError");
  });

  test("a list-changed notification drops the listing: the next resolve lists again", async () => {
    // A 2025 session watching its GET stream: serveSkills polls the folder and tells it.
    let changed: () => void = () => {};
    const heard = new Promise<void>((resolve) => (changed = resolve));
    const team = source("team3", {
      connect: { protocolVersion: "2025-11-25" },
      ttlMs: 600_000,
      watch: true,
      onListChanged: () => changed(),
    });
    const resolver = createResolver({ sources: [[team]] });
    await resolver.resolve("samtools");
    const lists = count("skills/list");
    await resolver.resolve("samtools");
    assert.equal(count("skills/list"), lists, "a warm listing is reused");
    await writeFile(join(dir, "bwa.md"), skillDoc("bwa", "BWA notes. Use when aligning."));
    await within(heard, 10_000, "the list-changed notification");
    assert.equal((await resolver.resolve("bwa")).source, "mcp:team3");
    assert.equal(count("skills/list"), lists + 1, "listed again after the notification");
  });
});
