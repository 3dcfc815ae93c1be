// The resolvers `resolveSkill` and `listSkills` keep warm (lib/resolve/default_sources.ts), seen
// from a real MCP server registered in config.toml: one resolver (one MCP session) per set of
// options, whatever their order; at most four, the least recently used closed (its session ended
// with a DELETE); closeSkillResolvers() ends the rest; a failed creation is not kept; and the
// caller's signal reaches the warm resolver.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  closeSkillResolvers,
  listSkills,
  resolveSkill,
} from "../../lib/resolve/default_sources.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import { skillDoc } from "./_helpers.ts";

describe("warm resolvers", () => {
  let home: string;
  let server: SdkServer;
  /** Options whose config.toml registers the server. */
  let withServer: { userDir: string; communityDir: string; configDir: string };
  /** Options for the i-th set without servers (empty folders). */
  const plain = (i: number) => ({
    userDir: join(home, `user${i}`),
    communityDir: join(home, "empty"),
    configDir: join(home, "empty"),
  });
  const count = (method: string, rpc?: string) =>
    server.requests.filter((r) => r.method === method && (rpc === undefined || r.rpc === rpc))
      .length;

  /**
   * Waits until the server saw `n` DELETEs, or `ms` passed (5 s when one is expected; a closed
   * resolver's DELETE follows within milliseconds, so 300 ms shows none is coming); answers how many
   * it saw.
   */
  async function deletes(n: number, ms = 5_000): Promise<number> {
    const until = Date.now() + ms;
    while (count("DELETE") < n && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    return count("DELETE");
  }

  before(async () => {
    home = await mkdtemp(join(tmpdir(), "skillmux-warm-"));
    server = await startSdkServer({
      stateful: true,
      skills: { bwa: skillDoc("bwa", "BWA from the team server. Use when aligning.") },
    });
    const configDir = join(home, "config");
    await mkdir(configDir, { recursive: true });
    await mkdir(join(home, "empty"), { recursive: true });
    await writeFile(
      join(configDir, "config.toml"),
      `[[mcp.servers]]\nname = "team"\nurl = "${server.url}"\n`,
    );
    withServer = { userDir: join(home, "empty"), communityDir: join(home, "empty"), configDir };
    await closeSkillResolvers();
  });
  after(async () => {
    await closeSkillResolvers();
    await server.close();
    await rm(home, { recursive: true, force: true });
  });

  test("one warm resolver per set of options: key order and undefined members do not matter", async () => {
    assert.equal((await resolveSkill("bwa", withServer)).source, "mcp:team");
    const { configDir, communityDir, userDir } = withServer;
    assert.equal(
      (await resolveSkill("bwa", { configDir, communityDir, userDir })).source,
      "mcp:team",
    );
    assert.equal(
      (await resolveSkill("bwa", { ...withServer, dbName: undefined })).source,
      "mcp:team",
    );
    assert.ok((await listSkills(withServer)).skills.some((s) => s.name === "bwa"));
    assert.equal(count("POST", "initialize"), 1, "one session for the one set of options");
    assert.equal(count("DELETE"), 0);
  });

  test("at most four stay warm: the least recently used is closed when a fifth is needed", async () => {
    for (const i of [1, 2, 3]) {
      assert.equal((await resolveSkill("samtools", plain(i))).source, "builtin");
    }
    assert.equal(await deletes(1, 300), 0, "four sets of options: none closed");
    await resolveSkill("bwa", withServer); // the server's resolver is now the most recent
    for (const i of [4, 5, 6]) await resolveSkill("samtools", plain(i)); // closes 1, 2, 3
    assert.equal(await deletes(1, 300), 0, "the server's resolver was used since: not closed");
    assert.equal(count("POST", "initialize"), 1);
    await resolveSkill("samtools", plain(7)); // closes the server's resolver
    assert.equal(await deletes(1), 1, "its session ended");
    assert.equal((await resolveSkill("bwa", withServer)).source, "mcp:team", "opened again");
    assert.equal(count("POST", "initialize"), 2);
  });

  test("closeSkillResolvers() ends every warm session", async () => {
    const before = count("DELETE");
    await closeSkillResolvers();
    assert.equal(count("DELETE"), before + 1);
    await resolveSkill("bwa", withServer);
    assert.equal(count("POST", "initialize"), 3, "the next call opens what it needs again");
  });

  test("a resolver whose creation failed is not kept: the same options try again", async () => {
    let calls = 0;
    const env = new Proxy({}, {
      get(target, name, receiver) {
        if (typeof name !== "string" || !/^[A-Z_]+$/.test(name)) {
          return Reflect.get(target, name, receiver);
        }
        if (calls++ === 0) throw new TypeError("the environment is not ready yet");
        return name === "HOME" ? home : undefined;
      },
      ownKeys: () => [],
    });
    await assert.rejects(resolveSkill("samtools", { env }), /not ready yet/);
    assert.equal((await resolveSkill("samtools", { env })).source, "builtin");
  });

  test("the caller's signal reaches the warm resolver", async () => {
    const signal = AbortSignal.abort(new Error("the caller gave up"));
    await assert.rejects(resolveSkill("samtools", { ...plain(1), signal }), /the caller gave up/);
    await assert.rejects(listSkills({ ...plain(1), signal }), /the caller gave up/);
  });
});
