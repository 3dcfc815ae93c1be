// A listing (lib/resolve/_list.ts) over memory and scripted sources: a source's summaries() list a
// skill unread when well formed, and each malformed one (or a failing summaries()) is read instead;
// a summary's lists keep strings only, capped; a frozen listing is checked once, one that is not on
// every call; skills are read in name order, none once the deadline passed; and a remote skill
// read for the listing has its allowed-tools requested, not granted.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createBuiltinSource,
  createMemoryStorage,
  createResolver,
  createStorageSource,
  type SkillSource,
} from "../../lib/mod.ts";
import type { SkillSummary, SourceEntry } from "../../lib/resolve/mod.ts";
import { BUILTIN_SKILLS } from "../../lib/resolve/builtin_skills.ts";

describe("a source's summaries", () => {
  const DIGEST = `sha256:${"a1".repeat(32)}`;
  const doc = (name: string) =>
    `---\nname: ${name}\ndescription: Read from the text. Use when testing.\n---\nBody\n`;

  /** A source listing `names`, summarising them with `summaries`, its reads counted. */
  function source(
    names: string[],
    summaries: () => Promise<unknown>,
  ): SkillSource & { reads: string[] } {
    const reads: string[] = [];
    return {
      label: "team",
      reads,
      list: () => Promise.resolve(names),
      get: (name): Promise<SourceEntry | undefined> => {
        reads.push(name);
        return Promise.resolve({ text: doc(name), location: `${name}.md` });
      },
      summaries: summaries as () => Promise<SkillSummary[]>,
    };
  }

  const summary = (name: string, more: Record<string, unknown> = {}) => ({
    name,
    description: `Summary of ${name}`,
    digest: DIGEST,
    ...more,
  });

  test("a well-formed summary lists its skill unread; each malformed one is read instead", async () => {
    const rows: unknown[] = [
      summary("good"),
      null,
      { ...summary("x"), name: 7 },
      summary("Not A Name!"),
      { ...summary("nodesc"), description: 7 },
      summary("blank", { description: "  " }),
      { ...summary("nodigest"), digest: 7 },
      summary("noprefix", { digest: "a1".repeat(32) }),
      summary("short", { digest: `sha256:${"a".repeat(63)}` }),
      summary("upper", { digest: `sha256:${"A".repeat(64)}` }),
      summary("after", { digest: `${DIGEST}x` }),
      summary("before", { digest: `x${DIGEST}` }),
      summary("twice"),
      summary("twice"),
    ];
    const names = ["good", "nodesc", "blank", "nodigest", "noprefix", "short", "upper", "after"];
    const team = source([...names, "before", "twice"], () => Promise.resolve(rows));
    const { skills } = await createResolver({ sources: [team] }).list();
    assert.deepEqual(team.reads.sort(), [...names.slice(1), "before", "twice"].sort());
    const good = skills.find((s) => s.name === "good")!;
    assert.equal(good.description, "Summary of good");
    assert.equal(good.digest, DIGEST);
    for (const s of skills.filter((s) => s.name !== "good")) {
      assert.equal(s.description, "Read from the text. Use when testing.", s.name);
    }
  });

  test("a failing summaries() or one that is not an array: every skill is read", async () => {
    for (
      const failing of [() => Promise.reject(new Error("down")), () => Promise.resolve("nope")]
    ) {
      const team = source(["a", "b"], failing);
      const { skills } = await createResolver({ sources: [team] }).list();
      assert.deepEqual(team.reads.sort(), ["a", "b"]);
      assert.deepEqual(skills.map((s) => s.name), ["a", "b"]);
    }
  });

  test("a summary's lists keep strings only, capped in count and length; location and remote checked", async () => {
    const long = "k".repeat(2_000);
    const many = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
    const team = source(["full", "bare"], () =>
      Promise.resolve([
        summary("full", {
          tags: [1, "bam", null, long, ...many(80)],
          keywords: many(300),
          tasks: many(200),
          allowedTools: ["Read", 2, ...many(70)],
          location: "team/full.md",
          remote: true,
        }),
        summary("bare", { tags: "bam", location: 5, remote: "yes", allowedTools: ["Read"] }),
      ]));
    const { skills } = await createResolver({ sources: [team] }).list();
    assert.deepEqual(team.reads, []);
    const [bare, full] = skills;
    assert.deepEqual(full.tags.slice(0, 2), ["bam", "k".repeat(1_024)]);
    assert.equal(full.tags.length, 64);
    assert.equal(full.keywords.length, 256);
    assert.equal(full.tasks.length, 128);
    assert.equal(full.location, "team/full.md");
    assert.deepEqual(full.allowedTools, [], "a remote skill's tools are requested, not granted");
    assert.equal(full.requestedAllowedTools?.length, 64);
    assert.deepEqual(full.requestedAllowedTools?.slice(0, 2), ["Read", "w0"]);
    assert.deepEqual(bare.tags, []);
    assert.equal(bare.location, undefined);
    assert.deepEqual(bare.allowedTools, ["Read"], "remote only when true");
  });

  test("a frozen listing is checked once: its rows keep their identity from call to call", async () => {
    const frozen = Object.freeze([Object.freeze(summary("a")), Object.freeze(summary("b"))]);
    const team = source(["a", "b"], () => Promise.resolve(frozen));
    const resolver = createResolver({ sources: [team] });
    const first = await resolver.list();
    const second = await resolver.list();
    assert.deepEqual(team.reads, []);
    assert.equal(second.skills[0].tags, first.skills[0].tags, "the same checked row");
  });

  test("a skill read for the listing has the tasks and keywords its summary would have", async () => {
    const text = BUILTIN_SKILLS["samtools"];
    const storage = createMemoryStorage({ initial: { "samtools.md": text } });
    const read = await createResolver({
      sources: [createStorageSource({ label: "user", storage })],
    })
      .list();
    const [summary] = await createBuiltinSource({ skills: { samtools: text } }).summaries!({
      signal: new AbortController().signal,
    });
    const [row] = read.skills;
    assert.ok(row.skill, "read, not summarised");
    assert.ok(row.tasks.length > 0 && row.keywords.length > row.tasks.length);
    assert.deepEqual(row.tasks, summary.tasks);
    assert.deepEqual(row.keywords, summary.keywords);
  });
});

describe("a listing's reads", () => {
  const DIGEST = `sha256:${"b2".repeat(32)}`;
  const doc = (name: string, more = "") =>
    `---\nname: ${name}\ndescription: Read from the text. Use when testing.\n${more}---\nBody\n`;

  test("a listing that is not frozen is checked on every call: a summary changed in place shows", async () => {
    const rows = [{ name: "a", description: "First words", digest: DIGEST }];
    const team: SkillSource = {
      label: "team",
      list: () => Promise.resolve(["a"]),
      get: () => Promise.resolve(undefined),
      summaries: () => Promise.resolve(rows),
    };
    const resolver = createResolver({ sources: [team] });
    assert.equal((await resolver.list()).skills[0].description, "First words");
    rows[0].description = "Second words";
    assert.equal((await resolver.list()).skills[0].description, "Second words");
  });

  test("a source's skills are read in name order, and their diagnostics come in that order whichever read finishes first", async () => {
    const reads: string[] = [];
    const team: SkillSource = {
      label: "team",
      list: () => Promise.resolve(["zeta", "alpha", "mid"]),
      get: (name): Promise<SourceEntry> => {
        reads.push(name);
        // The reads finish in reverse name order: zeta first, alpha last.
        const wait = { alpha: 60, mid: 30, zeta: 0 }[name] ?? 0;
        return new Promise((resolve) =>
          setTimeout(() => resolve({ text: `no front matter in ${name}` }), wait)
        );
      },
    };
    const { skills, diagnostics } = await createResolver({ sources: [team] }).list();
    assert.deepEqual(skills, []);
    assert.deepEqual(reads, ["alpha", "mid", "zeta"]);
    assert.deepEqual(diagnostics.map((d) => [d.name, d.problem]), [
      ["alpha", "invalid"],
      ["mid", "invalid"],
      ["zeta", "invalid"],
    ]);
  });

  test("once the list deadline passed, no further read starts", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `s${String(i).padStart(2, "0")}`);
    const reads: string[] = [];
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const team: SkillSource = {
      label: "team",
      list: () => Promise.resolve(names),
      get: (name): Promise<SourceEntry> => {
        reads.push(name);
        // Slower than the deadline; settles by itself (bounded), and is cleared at the end.
        return new Promise((resolve) => {
          const t = setTimeout(() => resolve({ text: doc(name) }), 5_000);
          timers.add(t);
        });
      },
    };
    try {
      const { skills } = await createResolver({ sources: [team], deadlineMs: 300 }).list();
      assert.deepEqual(skills, []);
      assert.equal(reads.length, 16, "only the first batch of 16 reads started");
    } finally {
      for (const t of timers) clearTimeout(t);
    }
  });

  test("a remote skill read for the listing: allowed-tools requested, not granted", async () => {
    const team: SkillSource = {
      label: "server",
      list: () => Promise.resolve(["far", "near"]),
      get: (name): Promise<SourceEntry> =>
        Promise.resolve({
          text: doc(name, "allowed-tools: Read Bash\n"),
          location: `${name}.md`,
          remote: name === "far",
        }),
    };
    const { skills } = await createResolver({ sources: [team] }).list();
    const [far, near] = skills;
    assert.ok(far.skill && near.skill, "both read, not summarised");
    assert.deepEqual(far.allowedTools, []);
    assert.deepEqual(far.requestedAllowedTools, ["Read", "Bash"]);
    assert.deepEqual(near.allowedTools, ["Read", "Bash"]);
    assert.equal(near.requestedAllowedTools, undefined);
    assert.equal("requestedAllowedTools" in near, false);
  });
});
