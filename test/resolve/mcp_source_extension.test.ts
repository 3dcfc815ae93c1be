// The MCP skill source on a server with the skills extension (skills/list), against serveSkills
// and the skills stub: its cache hint (ttlMs) beats the source's option, `peek` says no for a name
// it does not list, a cold lookup reads the one SKILL.md; a listing comes from the entries alone,
// nothing read; names differing only in case are one ambiguous skill; a dynamic entry is read only
// with allowDynamic; raw front matter lists are split, trimmed and keep strings only.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { BUILTIN_SKILLS } from "../../lib/resolve/builtin_skills.ts";
import { createBuiltinSource } from "../../lib/resolve/builtin_source.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { mcpSources, skillDoc, withStub } from "./_helpers.ts";

const { source, disposeAll } = mcpSources();
const signal = () => new AbortController().signal;
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
