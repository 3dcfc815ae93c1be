// Approvals in a live catalog, policy by policy, where the first mutation run of `catalog` found
// them untested (issue 19): built-in skills and host functions trusted under every policy; new
// entries under `first-sight`; changed ones held with a diff, or approved again under `auto` with
// a diagnostic; a server moved to another URL; lower sources standing in for a held skill (one
// already approved, one approved automatically, one that waits as well); and approve()'s refusal.
// Real skill sources in memory, real MCP servers on 127.0.0.1, a real registry.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  connect,
  createBuiltinSource,
  createCatalog,
  createMcpSkillSource,
  createMcpSkillSources,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
  type SkillSource,
  type Storage,
} from "../../lib/mod.ts";
import type { ApprovalPolicy } from "../../lib/catalog/mod.ts";
import { startToolServer, type TestTool } from "./_servers.ts";
import { startSdkServer } from "../mcp/_servers.ts";

const SKILL = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${name} notes for sorting BAM files. Use when sorting.\n---\n${body}\n`;

interface Setup {
  user: Storage;
  community?: Storage;
  approvals: Storage;
  local: ApprovalPolicy;
  builtin?: boolean;
}

function build({ user, community, approvals, local, builtin }: Setup) {
  return createCatalog({
    resolver: createResolver({
      sources: [
        createStorageSource({ label: "user", storage: user }),
        ...(community ? [createStorageSource({ label: "community", storage: community })] : []),
        ...(builtin ? [createBuiltinSource()] : []),
      ],
    }),
    functions: [{ name: "notify", description: "Tell the user", handler: () => "ok" }],
    approvals: { storage: approvals, local, remote: "require" },
  });
}

const messages = (catalog: { diagnostics: readonly { source: string; message: string }[] }) =>
  catalog.diagnostics.filter((d) => d.source === "approvals").map((d) => d.message);

describe("local policies", () => {
  test("built-in skills and host functions are trusted even when local entries are required", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "mine.md": SKILL("mine", "v1") } });
    const catalog = await build({ user, approvals, local: "require", builtin: true });
    assert.equal(catalog.get("mine"), undefined);
    assert.equal(catalog.get("samtools")?.source, "builtin");
    assert.equal(catalog.get("notify")?.approval, "approved");
    assert.deepEqual(catalog.held.map((h) => [h.entry.id, h.entry.approval, h.diff]), [
      ["mine", "pending", undefined],
    ]);
    assert.deepEqual(Object.keys(catalog.held[0]), ["entry"], "a new entry has no diff at all");
    assert.deepEqual(catalog.diagnostics.filter((d) => d.source === "approvals"), [{
      source: "approvals",
      problem: "pending",
      id: "mine",
      message: 'skill "mine" (user) is new and waits for an approval',
    }]);
    assert.equal(await approvals.get("approvals.json"), undefined, "nothing approved by itself");
  });

  test("first-sight approves a new skill silently and holds it once changed, with a diff", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "mine.md": SKILL("mine", "v1") } });
    const first = await build({ user, approvals, local: "first-sight" });
    assert.equal(first.get("mine")?.approval, "approved");
    assert.deepEqual(messages(first), []);
    const record = JSON.parse((await approvals.get("approvals.json"))!).records["skill:user:mine"];
    assert.equal(record.digest, first.get("mine")!.digest);

    await user.set("mine.md", SKILL("mine", "v2"));
    const second = await build({ user, approvals, local: "first-sight" });
    assert.equal(second.get("mine"), undefined);
    const [held] = second.held;
    assert.equal(held.entry.approval, "changed");
    assert.match(held.diff!, /^- v1$/m);
    assert.match(held.diff!, /^\+ v2$/m);
    assert.deepEqual(messages(second), [
      'skill "mine" (user) changed since it was approved; held until approved again',
    ]);
  });

  test("auto approves a changed skill again and says so", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "mine.md": SKILL("mine", "v1") } });
    await build({ user, approvals, local: "auto" });
    await user.set("mine.md", SKILL("mine", "v2"));
    const catalog = await build({ user, approvals, local: "auto" });
    assert.equal(catalog.get("mine")?.approval, "approved");
    assert.deepEqual(catalog.held, []);
    assert.deepEqual(catalog.diagnostics.filter((d) => d.source === "approvals"), [{
      source: "approvals",
      problem: "changed",
      id: "mine",
      message: 'skill "mine" (user) changed since it was approved; approved again (policy "auto")',
    }]);
    const record = JSON.parse((await approvals.get("approvals.json"))!).records["skill:user:mine"];
    assert.equal(record.digest, catalog.get("mine")!.digest);
    assert.match(record.definition, /v2/);
  });

  test("approve() names an id the catalog does not have and approves nothing", async () => {
    const approvals = createMemoryStorage();
    const user = createMemoryStorage({ initial: { "mine.md": SKILL("mine", "v1") } });
    const catalog = await build({ user, approvals, local: "require" });
    await assert.rejects(
      catalog.approve(["mine", "nope"]),
      (error: Error) =>
        error instanceof RangeError &&
        error.message === 'Cannot approve "nope": no such catalog entry',
    );
    assert.equal(await approvals.get("approvals.json"), undefined);
    await assert.rejects(
      catalog.loadSkill("notify"),
      (error: Error) => error.message === 'No usable skill "notify" in the catalog',
    );
  });
});

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

describe("a server moved to another URL", () => {
  const ECHO: TestTool = {
    name: "echo",
    description: "Echoes back the text it is given",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  };
  let a: Awaited<ReturnType<typeof startToolServer>>;
  let b: Awaited<ReturnType<typeof startToolServer>>;
  before(async () => {
    a = await startToolServer([ECHO]);
    b = await startToolServer([ECHO]);
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  /** `demo__echo` of a server registered at `a`, approved (by hand under `require`). */
  async function approvedAtA(remote: ApprovalPolicy = "require") {
    const approvals = createMemoryStorage();
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "demo", url: a.url });
    const first = await createCatalog({ registry, approvals: { storage: approvals, remote } });
    if (remote === "require") await first.approve(["demo__echo"]);
    first.dispose();
    return { approvals, registry };
  }

  /** A catalog of `registry` over `approvals`, disposed: only its state is read. */
  async function rebuilt(
    registry: ReturnType<typeof createServerRegistry>,
    approvals: Storage,
    remote: ApprovalPolicy = "require",
  ) {
    const catalog = await createCatalog({ registry, approvals: { storage: approvals, remote } });
    catalog.dispose();
    return catalog;
  }

  async function moved(remote: ApprovalPolicy) {
    const { approvals, registry } = await approvedAtA(remote);
    await registry.update("demo", { url: b.url });
    return { catalog: await rebuilt(registry, approvals, remote), approvals };
  }

  test("require: its unchanged tools are held, the message naming both places", async () => {
    const { catalog } = await moved("require");
    assert.equal(catalog.get("demo__echo"), undefined);
    assert.equal(catalog.held[0]?.entry.approval, "changed");
    assert.match(catalog.held[0].diff!, new RegExp(`^- endpoint: url ${a.url}$`, "m"));
    assert.deepEqual(messages(catalog), [
      `tool "demo__echo" (mcp:demo) now runs at url ${b.url}, not where it was approved ` +
      `(url ${a.url}); held until approved again`,
    ]);
  });

  test("auto: approved again at the new place, which the record keeps", async () => {
    const { catalog, approvals } = await moved("auto");
    assert.equal(catalog.get("demo__echo")?.approval, "approved");
    assert.deepEqual(messages(catalog), [
      `tool "demo__echo" (mcp:demo) now runs at url ${b.url}, not where it was approved ` +
      `(url ${a.url}); approved again (policy "auto")`,
    ]);
    const records = JSON.parse((await approvals.get("approvals.json"))!).records;
    assert.equal(records["tool:mcp:demo:echo"].endpoint, `url ${b.url}`);
  });

  test("the same tool reached through a lent client, with no endpoint, is held", async () => {
    const { approvals } = await approvedAtA();
    const client = await connect({ name: "demo", url: a.url });
    try {
      const catalog = await createCatalog({ clients: [client], approvals: { storage: approvals } });
      assert.equal(catalog.get("demo__echo"), undefined);
      assert.deepEqual(messages(catalog), [
        `tool "demo__echo" (mcp:demo) now runs at no recorded endpoint, not where it was ` +
        `approved (url ${a.url}); held until approved again`,
      ]);
    } finally {
      await client.close();
    }
  });

  test("moved and changed: the change is what the message says", async () => {
    const changed = await startToolServer([{ ...ECHO, description: "Echoes it back, louder" }]);
    try {
      const { approvals, registry } = await approvedAtA();
      await registry.update("demo", { url: changed.url });
      assert.deepEqual(messages(await rebuilt(registry, approvals)), [
        'tool "demo__echo" (mcp:demo) changed since it was approved; held until approved again',
      ]);
    } finally {
      await changed.close();
    }
  });

  test("a record from before endpoints were kept says so", async () => {
    const { approvals, registry } = await approvedAtA();
    const doc = JSON.parse((await approvals.get("approvals.json"))!);
    delete doc.records["tool:mcp:demo:echo"].endpoint;
    await approvals.set("approvals.json", JSON.stringify(doc));
    assert.deepEqual(messages(await rebuilt(registry, approvals)), [
      `tool "demo__echo" (mcp:demo) now runs at url ${a.url}, not where it was approved ` +
      `(no endpoint recorded); held until approved again`,
    ]);
  });
});
