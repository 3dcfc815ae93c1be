// The MCP skill source's own rules (lib/resolve/mcp_source.ts; survivors of the second `resolve`
// run), against real servers (serveSkills with the skills extension, the SDK's McpServer with
// skill:// resources) and, for connection faults, the scriptable fault server:
// - a skills-extension server: its own cache hint (ttlMs) beats the source's option; `peek` says
//   no for a name it does not list; a cold lookup reads the one SKILL.md, with no skill:// guess;
// - a listing of a skills-extension server comes from its entries alone, nothing read: the front
//   matter's tags and allowed-tools (as lists or one string), the concepts and tasks the server
//   adds, each as reading the skill would give them;
// - entries no real server lists (a stub): names differing only in case are one ambiguous skill,
//   with no summary and a get that names both; a "dynamic" entry has no summary and is read only
//   with allowDynamic; raw front matter lists are split, trimmed, and keep strings only; on a
//   resources server, a call waiting on a listing that fails lists again itself, and a failing
//   template listing only means no template; reads take the first non-empty text, -32002 and
//   -32602 mean "not here" and other errors are errors, a listed SKILL.md beats the guess, a warm
//   get reads once, and a skill read from resources is remote; `peek` answers from the listing
//   (a cold cached-only peek asks nothing; an open server's unlisted name is a maybe unless
//   listed-only); a resources server has no summaries; dispose after a failed connect resolves;
//   sources from a registry get the caller's connection options;
// - a resources server: a cold lookup reads skill://<name> before the listing answers (one round
//   trip); a name its template does not know is "not here", not an error; a server without
//   resources capability lists nothing, asking nothing; no notification stream unless `watch`;
// - a server that fails to connect is skipped for 30 s by default, the diagnostic says how long,
//   it is tried again once the cooldown ends, and a connection the caller gave up on is neither
//   shared with the next call nor the start of a cooldown.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { type SdkServer, startSdkServer } from "../mcp/_servers.ts";
import {
  type FaultServer,
  hangHeaders,
  initialize,
  startFaultServer,
  status,
} from "../mcp/_fault_server.ts";
import { BUILTIN_SKILLS } from "../../lib/resolve/builtin_skills.ts";
import { createBuiltinSource } from "../../lib/resolve/builtin_source.ts";
import { mcpSources, skillDoc } from "./_helpers.ts";
import { type Answer, rpcError, type SkillsStub, startSkillsStub } from "../mcp/_skills_stub.ts";
import { createServerRegistry } from "../../lib/mcp/registry/registry.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { createMcpSkillSources } from "../../lib/resolve/mcp_source.ts";
import { createHash } from "node:crypto";

const { source, keep, disposeAll } = mcpSources();
const signal = () => new AbortController().signal;
/** Runs `fn` against a skills stub answering by `answers` (a resources server when `plain`). */
async function withStub(
  answers: Record<string, Answer>,
  plain: boolean,
  fn: (stub: SkillsStub) => Promise<void>,
): Promise<void> {
  const stub = await startSkillsStub(answers, plain);
  try {
    await fn(stub);
  } finally {
    await stub.close();
  }
}
after(disposeAll);

describe("a skills-extension server", () => {
  let dir: string;
  let server: SkillsServer;
  const log: string[] = [];
  const count = (method: string) => log.filter((line) => line.split(" ")[2] === method).length;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillmux-mcp-source-"));
    await writeFile(join(dir, "samtools.md"), skillDoc("samtools", "Team. Use when sorting."));
    server = await serveSkills({ folder: dir, log: (line) => log.push(line) });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("its cache hint (ttlMs) beats the source's option", async () => {
    const resolver = createResolver({ sources: [source(server.url, { ttlMs: 0 })] });
    const before = count("skills/list");
    await resolver.resolve("samtools");
    await resolver.resolve("samtools");
    assert.equal(count("skills/list"), before + 1, "listed once: the server said 60 s");
  });

  test("peek says no for a name it does not list", async () => {
    const team = source(server.url);
    assert.equal(await team.peek!("nope", { signal: signal() }), false);
    assert.equal(await team.peek!("samtools", { signal: signal(), cachedOnly: true }), true);
  });

  test("a cold lookup reads the one SKILL.md, with no skill:// guess", async () => {
    const before = count("resources/read");
    const hit = await createResolver({ sources: [source(server.url)] }).resolve("samtools");
    assert.equal(hit.location, "skill://samtools/SKILL.md");
    assert.equal(count("resources/read"), before + 1);
  });
});

describe("a listing of a skills-extension server", () => {
  let dir: string;
  let server: SkillsServer;
  const log: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillmux-mcp-summaries-"));
    await writeFile(join(dir, "samtools.md"), BUILTIN_SKILLS["samtools"]);
    await writeFile(
      join(dir, "tagged.md"),
      "---\nname: tagged\ndescription: Tagged. Use when testing.\ntags: align, map\n" +
        "allowed-tools: Read  Bash\n---\n\nBody\n",
    );
    server = await serveSkills({ folder: dir, log: (line) => log.push(line) });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("comes from the entries alone, with what reading the skill would give", async () => {
    const { skills } = await createResolver({ sources: [source(server.url)] }).list();
    assert.equal(log.filter((line) => line.split(" ")[2] === "resources/read").length, 0);
    const [samtools, tagged] = skills;
    const [summary] = await createBuiltinSource({
      skills: { samtools: BUILTIN_SKILLS["samtools"] },
    })
      .summaries!({ signal: signal() });
    assert.equal(samtools.skill, undefined, "summarised, not read");
    assert.ok(samtools.tasks.length > 0 && samtools.keywords.length > samtools.tasks.length);
    assert.deepEqual(samtools.tasks, summary.tasks);
    assert.deepEqual(samtools.keywords, summary.keywords);
    assert.deepEqual(samtools.tags, summary.tags);
    assert.equal(samtools.description, summary.description);
    assert.equal(samtools.location, "skill://samtools/SKILL.md");
    assert.match(samtools.digest ?? "", /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(tagged.tags, ["align", "map"]);
    assert.deepEqual(tagged.allowedTools, []);
    assert.deepEqual(tagged.requestedAllowedTools, ["Read", "Bash"]);
  });
});

describe("entries no real server lists", () => {
  const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
  const doc = (name: string) =>
    `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\nBody\n`;
  const entry = (name: string, folder = name, over: Record<string, unknown> = {}) => {
    const uri = `skill://${folder}/SKILL.md`;
    const text = doc(name);
    return {
      uri,
      frontmatter: { name, description: `The ${name} skill.` },
      resources: [{ uri, digest: sha(text), size: text.length }],
      ...over,
    };
  };
  const texts: Record<string, string> = {
    "skill://dyn/SKILL.md": doc("dyn"),
    "skill://Dup/SKILL.md": doc("Dup"),
    "skill://dup/SKILL.md": doc("dup"),
  };

  test("names differing only in case are one ambiguous skill: no summary, a get naming both", async () => {
    await withStub(
      {
        "skills/list": () => ({ skills: [entry("Dup"), entry("dup"), entry("solo")] }),
      },
      false,
      async (stub) => {
        const team = source(stub.url);
        assert.deepEqual((await team.list({ signal: signal() })).sort(), ["dup", "solo"]);
        assert.deepEqual((await team.summaries!({ signal: signal() })).map((s) => s.name), [
          "solo",
        ]);
        await assert.rejects(
          team.get("dup", { signal: signal() }),
          /^Error: "dup" is ambiguous on s\d+: skill:\/\/Dup\/SKILL\.md, skill:\/\/dup\/SKILL\.md$/,
        );
      },
    );
  });

  test("a dynamic entry has no summary and is read only with allowDynamic", async () => {
    await withStub(
      {
        "skills/list": () => ({ skills: [entry("dyn", "dyn", { resources: "dynamic" })] }),
        "resources/read": (params) => ({
          contents: [{
            uri: params.uri,
            mimeType: "text/markdown",
            text: texts[String(params.uri)],
          }],
        }),
      },
      false,
      async (stub) => {
        const strict = source(stub.url);
        assert.deepEqual(await strict.summaries!({ signal: signal() }), []);
        await assert.rejects(strict.get("dyn", { signal: signal() }), /dynamic/);
        const loose = source(stub.url, { allowDynamic: true });
        const got = await loose.get("dyn", { signal: signal() });
        assert.equal(got?.text, texts["skill://dyn/SKILL.md"]);
        assert.equal(got?.remote, true);
      },
    );
  });

  test("raw front matter lists are split, trimmed and keep strings only", async () => {
    const listed = [
      entry("One", "One", {
        frontmatter: {
          name: "One",
          description: "The one skill.",
          tags: " align, map,, ",
          "allowed-tools": "Read   Bash",
        },
        _meta: { "io.skillmux/summary": { keywords: ["k", 1, null], tasks: [{}, "t"] } },
      }),
      entry("two", "two", {
        frontmatter: {
          name: "two",
          description: "The two skill.",
          tags: [" x ", 2, ""],
          "allowed-tools": ["Read", 7],
        },
      }),
    ];
    await withStub({ "skills/list": () => ({ skills: listed }) }, false, async (stub) => {
      const [one, two] = await source(stub.url).summaries!({ signal: signal() });
      assert.deepEqual(
        [one.name, one.tags, one.allowedTools, one.keywords, one.tasks],
        ["one", ["align", "map"], ["Read", "Bash"], ["k"], ["t"]],
      );
      assert.deepEqual([two.name, two.tags, two.allowedTools], ["two", ["x"], ["Read"]]);
      assert.deepEqual([two.keywords, two.tasks], [[], []]);
    });
  });

  test("a call waiting on a listing that fails lists again; failing templates mean none", async () => {
    let lists = 0;
    await withStub(
      {
        "resources/list": () =>
          lists++ === 0 ? { resources: "not a list" } : {
            resources: [{ uri: "skill://star", name: "star", mimeType: "text/markdown" }],
          },
        "resources/templates/list": () => ({ resourceTemplates: "not a list" }),
      },
      true,
      async (stub) => {
        const team = source(stub.url);
        const [first, second] = await Promise.allSettled([
          team.list({ signal: signal() }),
          team.list({ signal: signal() }),
        ]);
        assert.equal(first.status, "rejected");
        assert.deepEqual(second, { status: "fulfilled", value: ["star"] });
        assert.equal(await team.peek!("other", { signal: signal() }), false, "no template");
      },
    );
  });
});

describe("a resources server's reads (stub)", () => {
  const doc = (name: string, more = "") =>
    `---\nname: ${name}\ndescription: The ${name} skill.\n${more}---\n\nBody\n`;
  const resource = (name: string, uri = `skill://${name}`) => ({
    uri,
    name,
    mimeType: "text/markdown",
  });
  const reads: Record<string, unknown> = {
    "skill://star": { contents: [{ uri: "skill://star", text: "the guess, not the listed file" }] },
    "skill://star/SKILL.md": { contents: [{ uri: "skill://star/SKILL.md", text: doc("star") }] },
    "skill://mixed": {
      contents: [
        { uri: "skill://mixed", blob: "AAAA" },
        { uri: "skill://mixed", text: "" },
        { uri: "skill://mixed", text: doc("mixed") },
      ],
    },
    "skill://blobby": { contents: [{ uri: "skill://blobby", blob: "AAAA" }] },
    "skill://gone": rpcError(-32002, "Resource not found"),
    "skill://broken": rpcError(-32603, "the disk is on fire"),
    "skill://tools": {
      contents: [{ uri: "skill://tools", text: doc("tools", "allowed-tools: Read Bash\n") }],
    },
  };
  const answers = (open: boolean) => ({
    "resources/list": () => ({
      resources: [
        resource("star", "skill://star/SKILL.md"),
        ...["mixed", "blobby", "gone", "broken", "tools"].map((n) => resource(n)),
      ],
    }),
    "resources/templates/list": () => ({
      resourceTemplates: open ? [{ uriTemplate: "skill://{name}", name: "skill" }] : [],
    }),
    "resources/read": (params: Record<string, unknown>) =>
      reads[String(params.uri)] ?? rpcError(-32602, `no ${String(params.uri)}`),
  });
  const readCount = (calls: string[]) => calls.filter((m) => m === "resources/read").length;

  test("a listed SKILL.md beats the guess; the first non-empty text; -32002 is not here", async () => {
    await withStub(answers(true), true, async (stub) => {
      const team = source(stub.url);
      assert.equal((await team.get("star", { signal: signal() }))?.text, doc("star"));
      assert.equal((await team.get("mixed", { signal: signal() }))?.text, doc("mixed"));
      assert.equal(await team.get("blobby", { signal: signal() }), undefined);
      assert.equal(await team.get("gone", { signal: signal() }), undefined);
      assert.equal(await team.get("nobody", { signal: signal() }), undefined);
      await assert.rejects(team.get("broken", { signal: signal() }), /the disk is on fire/);
      const before = readCount(stub.calls);
      await team.get("star", { signal: signal() });
      assert.equal(readCount(stub.calls), before + 1, "a warm get reads once, no guess");
      assert.deepEqual(await team.summaries!({ signal: signal() }), [], "no summaries");
      const hit = await createResolver({ sources: [team] }).resolve("tools");
      assert.deepEqual([hit.skill.allowedTools, hit.requestedAllowedTools], [[], ["Read", "Bash"]]);
    });
  });

  test("peek answers from the listing; a cold cached-only peek asks nothing", async () => {
    await withStub(answers(true), true, async (stub) => {
      const team = source(stub.url);
      assert.equal(await team.peek!("star", { signal: signal(), cachedOnly: true }), undefined);
      assert.deepEqual(stub.calls, [], "nothing asked");
      assert.equal(await team.peek!("star", { signal: signal() }), true);
      assert.equal(await team.peek!("nobody", { signal: signal(), cachedOnly: true }), undefined);
      assert.equal(
        await team.peek!("nobody", { signal: signal(), cachedOnly: true, listedOnly: true }),
        false,
      );
    });
  });

  test("without a template, a name not listed is not read at all", async () => {
    await withStub(answers(false), true, async (stub) => {
      const team = source(stub.url);
      await team.list({ signal: signal() });
      assert.equal(await team.peek!("nobody", { signal: signal() }), false);
      const before = readCount(stub.calls);
      assert.equal(await team.get("nobody", { signal: signal() }), undefined);
      assert.equal(readCount(stub.calls), before);
    });
  });
});

describe("sources from a registry", () => {
  test("get the caller's connection options", async () => {
    await withStub({}, true, async (stub) => {
      const registry = createServerRegistry({ storage: createMemoryStorage() });
      await registry.import([{ name: "lab", url: stub.url }]);
      const [strict] = await createMcpSkillSources(registry, {
        connect: { urlPolicy: { mode: "strict" } },
      });
      keep(strict);
      const error = await createResolver({ sources: [strict] }).resolve("star").catch((e) => e);
      assert.equal(error.name, "SkillNotFoundError");
      assert.match(error.diagnostics[0].message, /127\.0\.0\.1|loopback|private|policy/i);
      assert.deepEqual(stub.calls, [], "refused before connecting");
    });
  });

  test("dispose while a connect is failing resolves", async () => {
    const fault = await startFaultServer();
    fault.script(hangHeaders());
    try {
      const team = source(fault.url);
      const listing = team.list({ signal: AbortSignal.timeout(100) });
      const [listed, disposed] = await Promise.allSettled([listing, team.dispose()]);
      assert.equal(listed.status, "rejected");
      assert.deepEqual(disposed, { status: "fulfilled", value: undefined });
    } finally {
      await fault.close();
    }
  });
});

describe("a resources server", () => {
  let server: SdkServer;
  const rpcs = () => server.requests.map((r) => r.rpc ?? r.method);

  before(async () => {
    server = await startSdkServer({
      stateful: true,
      skills: { star: skillDoc("star", "STAR. Use when mapping.") },
      unlisted: { hidden: skillDoc("hidden", "Hidden. Use when testing.") },
    });
  });
  after(() => server.close());

  test("a cold lookup reads skill://<name> before the listing answers", async () => {
    server.requests.length = 0;
    const hit = await createResolver({ sources: [source(server.url)] }).resolve("hidden");
    assert.equal(hit.location, "skill://hidden");
    const seen = rpcs();
    assert.ok(seen.indexOf("resources/read") < seen.indexOf("resources/list"), seen.join(" "));
    assert.equal(seen.filter((m) => m === "resources/read").length, 1);
  });

  test("a name its template does not know is not there, not an error", async () => {
    const team = source(server.url);
    assert.equal(await team.get("nobody", { signal: signal() }), undefined);
    const error = await createResolver({ sources: [team] }).resolve("nobody").catch((e) => e);
    assert.equal(error.name, "SkillNotFoundError");
    assert.deepEqual(error.diagnostics, []);
  });

  test("a server without the resources capability lists nothing, asking nothing", async () => {
    const bare = await startFaultServer();
    bare.lifecycle = true;
    bare.script(initialize());
    try {
      assert.deepEqual(await source(bare.url).list({ signal: signal() }), []);
      const asked = bare.received.map((r) => String(r.rpc?.method));
      assert.deepEqual(asked.filter((m) => m.startsWith("resources/")), [], asked.join(" "));
      assert.ok(asked.includes("initialize"));
    } finally {
      await bare.close();
    }
  });

  test("no notification stream unless watch is on", async () => {
    server.requests.length = 0;
    await source(server.url).list({ signal: signal() });
    assert.equal(server.requests.filter((r) => r.method === "GET").length, 0);
    const watching = source(server.url, { watch: true });
    await watching.list({ signal: signal() });
    for (let i = 0; i < 40 && !server.requests.some((r) => r.method === "GET"); i++) {
      await new Promise((r) => setTimeout(r, 50)); // bounded: 2 s
    }
    assert.equal(server.requests.filter((r) => r.method === "GET").length, 1);
  });
});

describe("a server that fails to connect", () => {
  let fault: FaultServer;
  before(async () => {
    fault = await startFaultServer();
    fault.fallback = status(500, "down for maintenance");
  });
  after(() => fault.close());

  test("is skipped for 30 s by default, and the diagnostic says how long", async () => {
    const flaky = source(fault.url);
    const resolver = createResolver({ sources: [flaky] });
    await resolver.resolve("star").catch(() => {});
    const tried = fault.received.length;
    const error = await resolver.resolve("star").catch((e) => e);
    assert.equal(fault.received.length, tried, "no new attempt");
    assert.match(error.diagnostics[0].message, /down for maintenance.*next attempt in 30 s\)$/);
  });

  test("is tried again once its cooldown ended", async () => {
    const flaky = source(fault.url, { retryAfterMs: 50 });
    const resolver = createResolver({ sources: [flaky] });
    await resolver.resolve("star").catch(() => {});
    const tried = fault.received.length;
    await new Promise((r) => setTimeout(r, 80));
    await resolver.resolve("star").catch(() => {});
    assert.ok(fault.received.length > tried, "a new attempt");
  });

  /** A server of its own that hangs on its first request, then answers 500 (no script leaks). */
  async function hangingOnce(): Promise<FaultServer> {
    const own = await startFaultServer();
    own.fallback = status(500, "down for maintenance");
    own.script(hangHeaders());
    return own;
  }

  test("a connection the caller gave up on is not shared, and starts no cooldown", async () => {
    // The first connect hangs until the caller's 1 s pass; the next call, made at once while
    // that connect is still being cancelled, starts its own and gets the server's own answer.
    const own = await hangingOnce();
    try {
      const resolver = createResolver({ sources: [source(own.url, { timeoutMs: 1_000 })] });
      const first = await resolver.resolve("star").catch((e) => e);
      assert.equal(first.diagnostics[0].problem, "timeout");
      const tried = own.received.length;
      const second = await resolver.resolve("star").catch((e) => e);
      assert.ok(own.received.length > tried, "tried again at once");
      assert.match(second.diagnostics[0].message, /HTTP 500 .*down for maintenance$/);
      const third = await resolver.resolve("star").catch((e) => e);
      assert.match(third.diagnostics[0].message, /down for maintenance \(skipped; next attempt/);
    } finally {
      await own.close();
    }
  });

  test("a connect the caller gave up on, once cancelled, leaves the server untried", async () => {
    const own = await hangingOnce();
    try {
      const resolver = createResolver({ sources: [source(own.url, { timeoutMs: 1_000 })] });
      const first = await resolver.resolve("star").catch((e) => e);
      assert.equal(first.diagnostics[0].problem, "timeout");
      await new Promise((r) => setTimeout(r, 300)); // the cancelled connect has settled
      const tried = own.received.length;
      const second = await resolver.resolve("star").catch((e) => e);
      assert.ok(own.received.length > tried, "tried again");
      assert.match(second.diagnostics[0].message, /HTTP 500 .*down for maintenance$/);
    } finally {
      await own.close();
    }
  });
});
