// How the resolver asks a tier (lib/resolve/_query.ts askTier): a group of sources (MCP servers)
// is asked in parallel and answered in order; members that can `peek` are read only when their
// cached listing may hold the name (counted in each member's reads); the members after a winner
// are cancelled and told why; a source answering without text is an "invalid" diagnostic; an empty
// group is no source. Scripted sources over memory storage.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { SkillSource } from "../../lib/mod.ts";
import type { SourceCallOptions, SourceEntry } from "../../lib/resolve/mod.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import {
  countingSource,
  delayedSource,
  failingSource,
  hangingSource,
  skillDoc,
} from "./_helpers.ts";

describe("groups (MCP servers): asked in parallel, answered in order", () => {
  test("every member is asked before any answers; the earlier member wins even when slower", async () => {
    const first = delayedSource("mcp:a", "bwa", skillDoc("bwa", "From a. Use when aligning."), 40);
    const second = delayedSource("mcp:b", "bwa", skillDoc("bwa", "From b. Use when aligning."), 1);
    const builtin = countingSource("builtin", { bwa: skillDoc("bwa") });
    const hit = await createResolver({ sources: [[first, second], builtin] }).resolve("bwa");
    assert.equal(hit.source, "mcp:a");
    assert.equal(first.askedAt.length, 1);
    assert.equal(second.askedAt.length, 1);
    assert.ok(second.askedAt[0] < first.askedAt[0] + 40, "b was asked while a was still working");
    assert.equal(builtin.gets.length, 0);
  });

  test("a member that fails or times out yields to the next one, with a diagnostic", async () => {
    const down = failingSource("mcp:down", "ECONNREFUSED");
    const slow = hangingSource("mcp:slow", 30);
    const good = delayedSource("mcp:good", "star", skillDoc("star"), 5);
    const hit = await createResolver({ sources: [[down, slow, good]] }).resolve("star");
    assert.equal(hit.source, "mcp:good");
    assert.deepEqual(hit.diagnostics.map((d) => [d.source, d.problem]), [
      ["mcp:down", "error"],
      ["mcp:slow", "timeout"],
    ]);
  });

  test("members after the winner are cancelled", async () => {
    const winner = delayedSource("mcp:a", "fastp", skillDoc("fastp"), 1);
    const later = hangingSource("mcp:b", 10_000);
    const hit = await createResolver({ sources: [[winner, later]] }).resolve("fastp");
    assert.equal(hit.source, "mcp:a");
    assert.equal(later.aborted, 1);
  });

  test("list() covers group members like any source", async () => {
    const a = delayedSource("mcp:a", "bwa", skillDoc("bwa"), 1);
    const b = delayedSource("mcp:b", "bwa", skillDoc("bwa"), 1);
    const resolver = createResolver({ sources: [[a, b]] });
    assert.deepEqual(resolver.sources.map((s) => s.label), ["mcp:a", "mcp:b"]);
    const { skills } = await resolver.list();
    assert.deepEqual(skills.map((s) => [s.name, s.source, s.shadows]), [["bwa", "mcp:a", [
      "mcp:b",
    ]]]);
  });
});

describe("members that can peek", () => {
  const doc = (name: string, by: string) =>
    `---\nname: ${name}\ndescription: From ${by}. Use when testing.\n---\nBody\n`;

  interface Member extends SkillSource {
    reads: string[];
    /** The options of each `peek`, without the signal. */
    peeks: Omit<SourceCallOptions, "signal">[];
  }

  /**
   * A member answering `peek` with `cached` (cachedOnly) and `listed` (listedOnly), and `get` with
   * its document, or a broken one when `broken`.
   */
  function member(
    label: string,
    says: { cached?: boolean; listed?: boolean; has?: boolean; broken?: boolean },
  ): Member {
    const reads: string[] = [];
    const peeks: Omit<SourceCallOptions, "signal">[] = [];
    return {
      label,
      reads,
      peeks,
      list: () => Promise.resolve(says.has ? ["demo"] : []),
      get: (name): Promise<SourceEntry | undefined> => {
        reads.push(name);
        if (says.broken) return Promise.resolve({ text: "not a skill" });
        return Promise.resolve(says.has ? { text: doc(name, label) } : undefined);
      },
      peek: (_name, { signal: _, ...options }) => {
        peeks.push(options);
        return Promise.resolve(options.listedOnly ? says.listed : says.cached) as Promise<boolean>;
      },
    };
  }

  const reads = (members: Member[]) => members.map((m) => m.reads.length);

  test("only the first member whose cached listing has the name is read", async () => {
    const tier = [
      member("no", { cached: false }),
      member("holder", { cached: true, has: true }),
      member("after", { cached: true, has: true }),
    ];
    const hit = await createResolver({ sources: [tier] }).resolve("demo");
    assert.equal(hit.source, "holder");
    assert.deepEqual(reads(tier), [0, 1, 0]);
  });

  test("above the holder, a guess (listing without the name) is not read; a member that cannot tell is", async () => {
    const guess = [
      member("guess", { cached: undefined, listed: false, has: true }),
      member("holder", { cached: true, has: true }),
    ];
    assert.equal((await createResolver({ sources: [guess] }).resolve("demo")).source, "holder");
    assert.deepEqual(reads(guess), [0, 1]);
    const unsure = [
      member("unsure", { cached: undefined, listed: undefined, has: true }),
      member("holder", { cached: true, has: true }),
    ];
    assert.equal((await createResolver({ sources: [unsure] }).resolve("demo")).source, "unsure");
    assert.deepEqual(reads(unsure), [1, 1]);
  });

  test("when the holder's copy is unusable, the others (guesses included) are read in order", async () => {
    const tier = [
      member("guess", { cached: undefined, listed: false, has: true }),
      member("holder", { cached: true, broken: true }),
      member("after", { cached: undefined, has: true }),
    ];
    const hit = await createResolver({ sources: [tier] }).resolve("demo");
    assert.equal(hit.source, "guess");
    assert.deepEqual(reads(tier), [1, 1, 1]);
    assert.ok(hit.diagnostics.some((d) => d.source === "holder"), "the unusable copy is reported");
  });

  test("with no holder, every member that does not say no is asked; the first hit in order wins", async () => {
    const tier = [
      member("no", { cached: false, has: true }),
      member("a", { cached: undefined }),
      member("b", { cached: undefined, has: true }),
      member("c", { cached: undefined, has: true }),
    ];
    const hit = await createResolver({ sources: [tier] }).resolve("demo");
    assert.equal(hit.source, "b");
    assert.deepEqual(reads(tier).slice(0, 3), [0, 1, 1]);
  });

  test("every peek answers from the cache; only the members above the holder are asked listed-only", async () => {
    const tier = [
      member("above", { cached: undefined, listed: undefined }),
      member("holder", { cached: true, has: true }),
      member("after", { cached: undefined, has: true }),
    ];
    assert.equal((await createResolver({ sources: [tier] }).resolve("demo")).source, "holder");
    assert.deepEqual(tier.map((m) => m.peeks), [
      [{ cachedOnly: true }, { cachedOnly: true, listedOnly: true }],
      [{ cachedOnly: true }],
      [{ cachedOnly: true }, { cachedOnly: true }], // the second: does the winner shadow it?
    ]);
    const none = [
      member("a", { cached: undefined }),
      member("b", { cached: undefined, has: true }),
    ];
    assert.equal((await createResolver({ sources: [none] }).resolve("demo")).source, "b");
    assert.deepEqual(none.map((m) => m.peeks), [[{ cachedOnly: true }], [{ cachedOnly: true }]]);
  });

  test("a member without peek does not stop the others' peeks from skipping", async () => {
    const plain: Member = { ...member("plain", { has: false }), peek: undefined };
    const tier = [plain, member("no", { cached: false, has: true }), member("yes", { has: true })];
    const hit = await createResolver({ sources: [tier] }).resolve("demo");
    assert.equal(hit.source, "yes");
    assert.deepEqual(reads(tier), [1, 0, 1]);
  });

  test("when the holder's copy is unusable and no guess is above it, the members after it are read; those that said no are not", async () => {
    const tier = [
      member("no", { cached: false, has: true }),
      member("holder", { cached: true, broken: true }),
      member("after", { cached: undefined, has: true }),
    ];
    const hit = await createResolver({ sources: [tier] }).resolve("demo");
    assert.equal(hit.source, "after");
    assert.deepEqual(reads(tier), [0, 1, 1]);
  });

  test("when the last open member holds an unusable copy, the guess above it is read", async () => {
    const tier = [
      member("guess", { cached: undefined, listed: false, has: true }),
      member("holder", { cached: true, broken: true }),
    ];
    const hit = await createResolver({ sources: [tier] }).resolve("demo");
    assert.equal(hit.source, "guess");
    assert.deepEqual(reads(tier), [1, 1]);
  });

  test("a tier of one source is read without a peek", async () => {
    const alone = member("alone", { cached: false, has: true });
    assert.equal((await createResolver({ sources: [alone] }).resolve("demo")).source, "alone");
    assert.deepEqual(alone.peeks, []);
    assert.deepEqual(alone.reads, ["demo"]);
  });

  test("a member still reading when an earlier one answered is cancelled, and told why", async () => {
    let reason: unknown;
    const slow: SkillSource = {
      label: "slow",
      list: () => Promise.resolve([]),
      get: (_name, { signal }) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(undefined), 5_000); // bounded: cleared on abort
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reason = signal.reason;
            resolve(undefined);
          });
        }),
    };
    const first = member("first", { has: true });
    const hit = await createResolver({ sources: [[{ ...first, peek: undefined }, slow]] })
      .resolve("demo");
    assert.equal(hit.source, "first");
    await new Promise((r) => setTimeout(r, 0));
    assert.ok(reason instanceof Error);
    assert.equal(reason.message, "a member earlier in the group answered");
  });
});

describe("a tier's answers", () => {
  const doc = (name: string) =>
    `---\nname: ${name}\ndescription: Read from the text. Use when testing.\nallowed-tools: Read\n---\nBody\n`;

  /** A source listing `names` whose `get` answers each of them with `entry(name)`. */
  function source(label: string, names: string[], entry: (name: string) => unknown): SkillSource {
    return {
      label,
      list: () => Promise.resolve(names),
      get: (name) =>
        Promise.resolve(
          (names.includes(name) ? entry(name) : undefined) as SourceEntry | undefined,
        ),
    };
  }

  test("a source that answers without text is reported as invalid, and the next source answers", async () => {
    for (const answer of [{ text: 42 }, null, { body: "text" }, "text"]) {
      const broken = source("broken", ["demo"], () => answer);
      const good = source("good", ["demo"], (name) => ({ text: doc(name) }));
      const hit = await createResolver({ sources: [broken, good] }).resolve("demo");
      assert.equal(hit.source, "good", JSON.stringify(answer));
      assert.deepEqual(hit.diagnostics, [{
        source: "broken",
        name: "demo",
        problem: "invalid",
        message: "the source answered without text",
      }]);
      const { skills, diagnostics } = await createResolver({ sources: [broken] }).list();
      assert.deepEqual(skills, []);
      assert.deepEqual(diagnostics.map((d) => [d.source, d.problem]), [["broken", "invalid"]]);
    }
  });

  test("a local skill's answer has no requestedAllowedTools; a remote one's has", async () => {
    const local = source("local", ["demo"], (name) => ({ text: doc(name) }));
    const hit = await createResolver({ sources: [local] }).resolve("demo");
    assert.deepEqual(hit.skill.allowedTools, ["Read"]);
    assert.ok(!("requestedAllowedTools" in hit), Object.keys(hit).join(" "));
    const remote = source("remote", ["demo"], (name) => ({ text: doc(name), remote: true }));
    const far = await createResolver({ sources: [remote] }).resolve("demo");
    assert.deepEqual([far.skill.allowedTools, far.requestedAllowedTools], [[], ["Read"]]);
  });

  test("an empty group is no source: nothing found there, nothing reported", async () => {
    const good = source("good", ["demo"], (name) => ({ text: doc(name) }));
    const resolver = createResolver({ sources: [[], good] });
    assert.equal((await resolver.resolve("demo")).source, "good");
    const missing = await resolver.resolve("nobody").catch((e) => e);
    assert.equal(missing.name, "SkillNotFoundError");
    assert.deepEqual(missing.diagnostics, []);
  });

  test("a source's summaries() gets the listing's signal", async () => {
    const seen: SourceCallOptions[] = [];
    const team: SkillSource = {
      ...source("team", ["demo"], (name) => ({ text: doc(name) })),
      summaries: (options) => {
        seen.push(options);
        return Promise.resolve([]);
      },
    };
    await createResolver({ sources: [team] }).list();
    assert.equal(seen.length, 1);
    assert.ok(seen[0].signal instanceof AbortSignal);
  });
});
