// Stand-ins for a held skill: while the winning version of a skill waits for approval, a lower
// source's version answers if it is approved (or approved now under its policy), fenced as its
// trust says; one that cannot be read, never approved, or approved where its server no longer
// runs is passed over; a held tool takes no stand-in; the approvals reported beside a stand-in.
// Real skill sources in memory, real MCP servers on 127.0.0.1, a real registry.
// Over 300 lines: one behaviour, each way a stand-in is taken or passed over.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createMcpSkillSource,
  createMcpSkillSources,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type SkillSource,
} from "../../../lib/mod.ts";
import type { ApprovalPolicy } from "../../../lib/catalog/mod.ts";
import { startToolServer } from "../_servers.ts";
import { startSdkServer } from "../../mcp/_servers.ts";
import { build, messages, SKILL } from "../_approvals.ts";

describe("stand-ins for a held skill", () => {
  test("an already approved lower version answers; one never approved waits as well", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "samtools.md": SKILL("samtools", "mine") } });
    const community = createMemoryStorage({
      initial: { "samtools.md": SKILL("samtools", "theirs") },
    });
    // Under first-sight the user's version is approved at first sight, then changes.
    const first = await build({ user, community, approvals, local: "first-sight", builtin: true });
    assert.equal(first.get("samtools")?.source, "user");
    await user.set("samtools.md", SKILL("samtools", "mine, changed"));
    const second = await build({ user, community, approvals, local: "first-sight", builtin: true });
    // The community version was never approved: under first-sight it waits too; the built-in
    // (trusted) answers.
    assert.equal(second.get("samtools")?.source, "builtin");
    const held = second.held.find((h) => h.entry.id === "samtools")!;
    assert.deepEqual([held.entry.source, held.entry.approval, held.standIn], [
      "user",
      "changed",
      "builtin",
    ]);
    const standIn = second.diagnostics.find((d) =>
      d.source === "approvals" && d.message.includes("answers until then")
    );
    assert.deepEqual(standIn, {
      source: "approvals",
      problem: "changed",
      id: "samtools",
      message:
        'skill "samtools" (user) waits for approval; the approved version from builtin answers until then',
    });
    assert.equal((await second.loadSkill("samtools")).source, "builtin");

    // Once the community version is approved (its digest read from a catalog of it alone), it
    // stands in ahead of the built-in.
    const records = JSON.parse((await approvals.get("approvals.json"))!).records;
    const communityBuilt = await build({
      user: createMemoryStorage(),
      community,
      approvals: createMemoryStorage(),
      local: "auto",
    });
    records["skill:community:samtools"] = {
      digest: communityBuilt.get("samtools")!.digest,
      definition: "",
      approvedAt: new Date().toISOString(),
    };
    await approvals.set("approvals.json", JSON.stringify({ version: 1, records }));
    const third = await build({ user, community, approvals, local: "first-sight", builtin: true });
    assert.equal(third.get("samtools")?.source, "community");
    assert.equal(third.held.find((h) => h.entry.id === "samtools")?.standIn, "community");
    assert.match((await third.loadSkill("samtools")).skill.body, /theirs/);
  });

  test("a held tool of the same name as a held skill takes no stand-in", async () => {
    const tools = await startToolServer([{
      name: "samtools",
      description: "Run samtools remotely",
      inputSchema: { type: "object" },
    }]);
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "srv", url: tools.url });
    const user = createMemoryStorage({ initial: { "samtools.md": SKILL("samtools", "mine") } });
    try {
      const catalog = await createCatalog({
        resolver: createResolver({
          sources: [createStorageSource({ label: "user", storage: user }), createBuiltinSource()],
        }),
        registry,
        approvals: { storage: createMemoryStorage(), local: "require", remote: "require" },
      });
      assert.deepEqual(catalog.held.map((h) => [h.entry.id, h.standIn]), [
        ["samtools", "builtin"],
        ["srv__samtools", undefined],
      ]);
      assert.equal(catalog.get("samtools")?.source, "builtin");
      assert.equal(catalog.get("srv__samtools"), undefined);
      catalog.dispose();
    } finally {
      await tools.close();
    }
  });

  test("a held remote skill: the user's version never approved is approved under auto and answers", async () => {
    const team = await startSdkServer({
      skills: { samtools: SKILL("samtools", "TEAM VERSION") },
      json: true,
    });
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "samtools.md": SKILL("samtools", "mine") } });
    try {
      const catalog = await createCatalog({
        resolver: createResolver({
          sources: [
            [createMcpSkillSource({ name: "team", url: team.url })],
            createStorageSource({ label: "user", storage: user }),
          ],
        }),
        approvals: { storage: approvals, local: "auto", remote: "require" },
      });
      assert.equal(catalog.get("samtools")?.source, "user");
      assert.equal(catalog.held.find((h) => h.entry.id === "samtools")?.standIn, "user");
      assert.deepEqual(
        catalog.diagnostics.filter((d) => d.message.includes("answers until then")),
        [{
          source: "approvals",
          problem: "pending",
          id: "samtools",
          message:
            'skill "samtools" (mcp:team) waits for approval; the approved version from user answers until then',
        }],
      );
      const records = JSON.parse((await approvals.get("approvals.json"))!).records;
      assert.equal(records["skill:user:samtools"].digest, catalog.get("samtools")!.digest);
      assert.equal(records["skill:mcp:team:samtools"], undefined);
      assert.match((await catalog.loadSkill("samtools")).skill.body, /mine/);
      catalog.dispose();
    } finally {
      await team.close();
    }
  });
});

describe("a community stand-in", () => {
  test("is fenced or not as the catalog's trustCommunity says, like the winners", async () => {
    for (const trustCommunity of [true, false]) {
      const approvals = createMemoryStorage();
      const user = createMemoryStorage();
      const community = createMemoryStorage({
        initial: { "samtools.md": SKILL("samtools", "theirs") },
      });
      const built = async () => {
        const catalog = await createCatalog({
          resolver: createResolver({
            sources: [
              createStorageSource({ label: "user", storage: user }),
              createStorageSource({ label: "community", storage: community }),
            ],
          }),
          trustCommunity,
          approvals: { storage: approvals, local: "first-sight", remote: "require" },
        });
        catalog.dispose();
        return catalog;
      };
      // Both versions approved at first sight, then the user's changes: the community's stands in.
      assert.equal((await built()).get("samtools")?.fenced, trustCommunity ? undefined : true);
      await user.set("samtools.md", SKILL("samtools", "mine"));
      assert.equal((await built()).get("samtools")?.source, "user");
      await user.set("samtools.md", SKILL("samtools", "mine, changed"));
      const standIn = (await built()).get("samtools");
      assert.equal(standIn?.source, "community");
      assert.equal(standIn?.fenced, trustCommunity ? undefined : true, `trust ${trustCommunity}`);
    }
  });
});

describe("a lower version that cannot be read", () => {
  test("is passed over with a diagnostic naming it and the held version", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "samtools.md": SKILL("samtools", "mine") } });
    // Listed from its summary alone; reading it fails.
    const community: SkillSource = {
      label: "community",
      list: () => Promise.resolve(["samtools"]),
      summaries: () =>
        Promise.resolve([{
          name: "samtools",
          description: "Community samtools notes. Use when sorting.",
          digest: `sha256:${"c3".repeat(32)}`,
        }]),
      get: () => Promise.reject(new Error("disk on fire")),
    };
    const built = async () => {
      const catalog = await createCatalog({
        resolver: createResolver({
          sources: [createStorageSource({ label: "user", storage: user }), community],
        }),
        approvals: { storage: approvals, local: "first-sight", remote: "require" },
      });
      catalog.dispose();
      return catalog;
    };
    assert.equal((await built()).get("samtools")?.source, "user");
    await user.set("samtools.md", SKILL("samtools", "mine, changed"));
    const catalog = await built();
    assert.equal(catalog.get("samtools"), undefined);
    assert.equal(catalog.held.find((h) => h.entry.id === "samtools")?.standIn, undefined);
    const passed = catalog.diagnostics.filter((d) => d.source === "community");
    assert.equal(passed.length, 1, JSON.stringify(catalog.diagnostics));
    assert.equal(passed[0].problem, "invalid");
    assert.match(
      passed[0].message,
      /^community: cannot read skill "samtools" to stand in for the held user version: .*disk on fire/,
    );
  });
});

describe("a stand-in served by a moved server", () => {
  test("an approved remote version whose server moved waits; the built-in stands in", async () => {
    const doc = SKILL("samtools", "TEAM VERSION");
    const teamA = await startSdkServer({ skills: { samtools: doc }, json: true });
    const teamB = await startSdkServer({ skills: { samtools: doc }, json: true });
    const approvals = createMemoryStorage();
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    const user = createMemoryStorage({ initial: { "samtools.md": SKILL("samtools", "mine") } });
    /** A catalog of the user's skills (when `mine`), the registry's servers and the built-ins. */
    const built = async (mine: boolean, remote: ApprovalPolicy) => {
      const mcp = await createMcpSkillSources(registry);
      const catalog = await createCatalog({
        resolver: createResolver({
          sources: [
            ...(mine ? [createStorageSource({ label: "user", storage: user })] : []),
            mcp,
            createBuiltinSource(),
          ],
        }),
        registry,
        approvals: { storage: approvals, local: "first-sight", remote },
      });
      catalog.dispose();
      await Promise.all(mcp.map((s) => s.dispose()));
      return catalog;
    };
    try {
      await registry.add({ name: "team", url: teamA.url });
      // The team's version approved at A (auto), then the user's at first sight, then changed.
      assert.equal((await built(false, "auto")).get("samtools")?.source, "mcp:team");
      assert.equal((await built(true, "require")).get("samtools")?.source, "user");
      await user.set("samtools.md", SKILL("samtools", "mine, changed"));
      const atA = await built(true, "require");
      assert.equal(atA.held.find((h) => h.entry.id === "samtools")?.standIn, "mcp:team");
      // The same text served from B: approved at A only, so it waits too.
      await registry.update("team", { url: teamB.url });
      const atB = await built(true, "require");
      assert.equal(atB.held.find((h) => h.entry.id === "samtools")?.standIn, "builtin");
      assert.equal(atB.get("samtools")?.source, "builtin");
    } finally {
      await teamA.close();
      await teamB.close();
    }
  });
});

test("a build where a lower source stands in still reports an entry approved again under auto", async () => {
  const tools = [{
    name: "echo",
    description: "Echoes the text back",
    inputSchema: { type: "object" as const },
  }];
  const server = await startToolServer(tools);
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "srv", url: server.url });
  const SORTER = (body: string) =>
    `---\nname: sorter\ndescription: Sorts BAM files. Use when sorting.\n---\n${body}\n`;
  const user = createMemoryStorage();
  const community = createMemoryStorage({ initial: { "sorter.md": SORTER("community") } });
  const approvals = createMemoryStorage();
  const build = () =>
    createCatalog({
      resolver: createResolver({
        sources: [
          createStorageSource({ label: "user", storage: user }),
          createStorageSource({ label: "community", storage: community }),
        ],
      }),
      registry,
      discoveryMaxAgeMs: 0,
      approvals: { storage: approvals, local: "require", remote: "auto" },
    });
  try {
    const first = await build();
    first.dispose();
    assert.deepEqual(first.held.map((h) => [h.entry.id, h.entry.source]), [
      ["sorter", "community"],
    ]);
    await first.approve(["sorter"]);
    // The user's own version arrives (held: local entries are required) and the tool changes.
    await user.set("sorter.md", SORTER("user"));
    tools[0].description = "Echoes the text back, louder";
    const second = await build();
    second.dispose();
    assert.equal(second.get("sorter")?.source, "community", "the approved version stands in");
    assert.equal(second.get("srv__echo")?.description, "Echoes the text back, louder");
    assert.deepEqual(messages(second).sort(), [
      'skill "sorter" (user) is new and waits for an approval',
      'skill "sorter" (user) waits for approval; the approved version from community answers until then',
      'tool "srv__echo" (mcp:srv) changed since it was approved; approved again (policy "auto")',
    ]);
  } finally {
    await server.close();
  }
});
