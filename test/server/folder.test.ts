// A folder of skills: edits are served without a restart; sessions hear list_changed.
import assert from "node:assert/strict";
import { mkdir, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { connect } from "../../lib/mcp/client/client.ts";
import type { JsonRpcNotification } from "../../lib/mcp/protocol/types.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { makeTempDir, removeTempDirs } from "../storage/_tmp.ts";
import { skillDoc } from "./_helpers.ts";

const servers: SkillsServer[] = [];
let dir: string;

before(async () => {
  dir = await makeTempDir("skillmux-serve-");
});

after(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await removeTempDirs();
});

/** Write a file and push its mtime forward, so even a same-size rewrite is seen. */
async function put(file: string, text: string): Promise<void> {
  await writeFile(file, text);
  const later = new Date(Date.now() + Math.floor(Math.random() * 100_000) + 1_000);
  await utimes(file, later, later);
}

describe("serveSkills over a folder", () => {
  test("add, change and remove a skill: the next resources/list reflects it", async () => {
    const folder = join(dir, "stateless");
    await mkdir(folder);
    await put(join(folder, "alpha.md"), skillDoc("alpha", "Alpha skill. Use when testing."));
    const server = await serveSkills({ folder });
    servers.push(server);
    const client = await connect({ name: "folder", url: server.url });
    try {
      const names = async () => (await client.listResources()).map((r) => r.name).sort();
      assert.deepEqual(await names(), ["alpha"]);
      await mkdir(join(folder, "beta"));
      await put(
        join(folder, "beta", "SKILL.md"),
        skillDoc("beta", "Beta skill. Use when testing."),
      );
      assert.deepEqual(await names(), ["alpha", "beta"]);
      await put(join(folder, "alpha.md"), skillDoc("alpha", "Changed alpha. Use when testing."));
      const alpha = (await client.listResources()).find((r) => r.name === "alpha");
      assert.equal(alpha?.description, "Changed alpha. Use when testing.");
      const [content] = await client.readResource("skill://alpha");
      assert.match(content.text ?? "", /Changed alpha/);
      await rm(join(folder, "alpha.md"));
      assert.deepEqual(await names(), ["beta"]);
      const miss = await client.callTool("get_skill", { name: "alpha" });
      assert.equal(miss.isError, true);
    } finally {
      await client.close();
    }
  });

  test("sessions: a session hears notifications/resources/list_changed", async () => {
    const folder = join(dir, "sessions");
    await mkdir(folder);
    await put(join(folder, "alpha.md"), skillDoc("alpha", "Alpha skill. Use when testing."));
    const server = await serveSkills({ folder, sessions: true });
    servers.push(server);
    const heard: JsonRpcNotification[] = [];
    // A 2025 session without a GET stream: told on its next request's stream.
    const client = await connect({ name: "folder", url: server.url }, {
      protocolVersion: "2025-11-25",
      listen: false,
      onNotification: (message) => heard.push(message),
    });
    try {
      assert.equal((await client.listResources()).length, 1);
      assert.equal(heard.length, 0);
      await put(join(folder, "gamma.md"), skillDoc("gamma", "Gamma skill. Use when testing."));
      const names = (await client.listResources()).map((r) => r.name).sort();
      assert.deepEqual(names, ["alpha", "gamma"]);
      assert.deepEqual(heard.map((m) => m.method), ["notifications/resources/list_changed"]);
      assert.equal((await client.listResources()).length, 2);
      assert.equal(heard.length, 1, "told once per change");
    } finally {
      await client.close();
    }
  });
});
