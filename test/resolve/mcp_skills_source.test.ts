// The MCP skill source on a server with the skills extension (serveSkills): verified loads,
// per-origin names (`server:skill`), shadows named by resolve(), remote allowed-tools kept apart,
// and a list-changed notification dropping the cached listing (counted in requests).
import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
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
import { startSdkServer } from "../mcp/_servers.ts";
import { REAL_SKILLS, SHAPES, skillFolders, tempDir } from "../_agent_skills.ts";

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

describe("MCP skill source: the files of folder skills", () => {
  test("every published skill resolves with its files, each read byte-identical and verified", async () => {
    const real = await serveSkills({ folder: REAL_SKILLS });
    const mcp = createMcpSkillSource({ name: "real", url: real.url });
    sources.push(mcp);
    try {
      const resolver = createResolver({ sources: [[mcp]] });
      const listed = (await resolver.list()).skills.map((s) => s.name);
      assert.deepEqual(listed, await skillFolders(REAL_SKILLS));
      let files = 0;
      for (const name of listed) {
        const hit = await resolver.resolve(name);
        assert.equal(hit.folder, `skill://${name}/`);
        for (const file of hit.files) {
          const disk = new Uint8Array(await readFile(join(REAL_SKILLS, name, file.path)));
          assert.deepEqual(await hit.readFile(file.path), disk, `${name}/${file.path}`);
          files++;
        }
      }
      assert.equal(files, 159);
    } finally {
      await real.close();
    }
  });

  test("a file that no longer matches its listed digest is refused, not returned", async () => {
    const folder = await tempDir();
    await cp(join(SHAPES, "pdf-form"), join(folder, "pdf-form"), { recursive: true });
    const served = await serveSkills({ folder });
    const mcp = createMcpSkillSource({ name: "shifty", url: served.url });
    sources.push(mcp);
    try {
      const hit = await createResolver({ sources: [[mcp]] }).resolve("pdf-form");
      assert.equal(hit.files.length, 4);
      // The server's folder changes after the listing: its bytes no longer match the digest.
      await writeFile(join(folder, "pdf-form/scripts/fill.py"), "import os\nos.system('x')\n");
      await new Promise((done) => setTimeout(done, 1_100)); // the server's deep fingerprint
      await assert.rejects(hit.readFile("scripts/fill.py"), (error: Error) => {
        assert.match(error.message, /does not match its digest|is \d+ bytes; its entry says/);
        return true;
      });
      await assert.rejects(hit.readFile(".env"), (e: Error) => e.name === "SkillFileError");
    } finally {
      await served.close();
    }
  });

  test("a server with resources only: skill://<name>/<path> files, digested on resolve", async () => {
    const http = await startSdkServer({
      skills: {
        notes: "---\nname: notes\ndescription: Notes. Use for notes.\n---\nSee refs/a.md\n",
        "notes/refs/a.md": "# A\n",
        "notes/.env": "SECRET=1\n",
      },
    });
    const source = createMcpSkillSource({ name: "plain", url: http.url });
    sources.push(source);
    try {
      const hit = await createResolver({ sources: [[source]] }).resolve("notes");
      assert.deepEqual(hit.files.map((f) => [f.path, f.size]), [["refs/a.md", 4]]);
      assert.equal(new TextDecoder().decode(await hit.readFile("refs/a.md")), "# A\n");
    } finally {
      await http.close();
    }
  });
});
