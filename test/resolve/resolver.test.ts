// The resolver (lib/resolve/resolver.ts) over memory storage and scripted sources: resolve() asks
// sources in priority order, the first hit winning, with diagnostics for invalid content, failing
// and hanging sources; names are checked (ASCII, not starting with a colon) and matched without
// case; an `origin:name` lookup asks that source alone; list() gives each skill once with what it
// shadows; deadlines, the caller's signal and the parse options reach every source. Over 300
// lines: one component's rules. Groups and tiers: tiers.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { SkillSource } from "../../lib/mod.ts";
import type { SourceEntry } from "../../lib/resolve/mod.ts";
import { isSkillNotFoundError, SkillNotFoundError } from "../../lib/resolve/errors.ts";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { isInvalidSkillNameError } from "../../lib/skill/errors.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { countingSource, failingSource, hangingSource, skillDoc } from "./_helpers.ts";

describe("resolve()", () => {
  test("the highest source that has the skill wins and lower sources are never asked", async () => {
    const user = countingSource("user", {
      samtools: skillDoc("samtools", "Mine. Use when sorting."),
    });
    const community = countingSource("community", { samtools: skillDoc("samtools") });
    const builtin = countingSource("builtin", { samtools: skillDoc("samtools") });
    const hit = await createResolver({ sources: [user, community, builtin] }).resolve("samtools");
    assert.equal(hit.source, "user");
    assert.equal(hit.location, "samtools.md");
    assert.equal(hit.skill.description, "Mine. Use when sorting.");
    assert.deepEqual([user.gets, community.gets, builtin.gets], [["samtools"], [], []]);
  });

  test("a miss falls through in priority order, and only as far as the first hit", async () => {
    const user = countingSource("user", {});
    const community = countingSource("community", { bwa: skillDoc("bwa") });
    const builtin = countingSource("builtin", { bwa: skillDoc("bwa") });
    const hit = await createResolver({ sources: [user, community, builtin] }).resolve("bwa");
    assert.equal(hit.source, "community");
    assert.deepEqual([user.gets.length, community.gets.length, builtin.gets.length], [1, 1, 0]);
  });

  test("invalid content is skipped with a diagnostic naming source, skill and reason", async () => {
    const user = countingSource("user", { fastp: "---\nname: fastp\n---\nno description\n" });
    const builtin = countingSource("builtin", { fastp: skillDoc("fastp") });
    const hit = await createResolver({ sources: [user, builtin] }).resolve("fastp");
    assert.equal(hit.source, "builtin");
    assert.equal(hit.diagnostics.length, 1);
    const [d] = hit.diagnostics;
    assert.equal(d.source, "user");
    assert.equal(d.name, "fastp");
    assert.equal(d.problem, "invalid");
    assert.match(d.message, /description/);
  });

  test("a document whose front matter names another skill loads under its file name, saying so", async () => {
    const user = countingSource("user", { star: skillDoc("hisat2") });
    const builtin = countingSource("builtin", { star: skillDoc("star") });
    const hit = await createResolver({ sources: [user, builtin] }).resolve("star");
    assert.equal(hit.source, "user");
    assert.equal(hit.skill.name, "star");
    assert.equal(hit.skill.declaredName, "hisat2");
    assert.deepEqual(hit.diagnostics.map((d) => [d.source, d.problem]), [["user", "warning"]]);
    assert.match(hit.diagnostics[0].message, /"hisat2" but the file or folder name says "star"/);
    // A strict resolver (publishers) refuses the copy and goes on to the next source.
    const strict = await createResolver({ sources: [user, builtin], parse: { strict: true } })
      .resolve("star");
    assert.equal(strict.source, "builtin");
    assert.equal(strict.diagnostics[0].problem, "invalid");
  });

  for (const bad of ["../x", "/etc/passwd", "a/b", "", "x".repeat(65), "a--b", "-a", "a b"]) {
    test(`invalid name ${JSON.stringify(bad.slice(0, 20))} is refused before any source is asked`, async () => {
      const source = countingSource("user", {});
      const resolver = createResolver({ sources: [source] });
      await assert.rejects(resolver.resolve(bad), (e) => isInvalidSkillNameError(e));
      assert.equal(source.gets.length, 0);
    });
  }

  test("a look-alike that lowercases to ASCII (\u212Aelvin) is refused, not resolved as kelvin", async () => {
    const source = countingSource("user", { kelvin: skillDoc("kelvin") });
    const resolver = createResolver({ sources: [source] });
    await assert.rejects(resolver.resolve("\u212Aelvin"), (e) => {
      assert.ok(isInvalidSkillNameError(e));
      assert.match((e as Error).message, /U\+212A\) is not ASCII/);
      return true;
    });
    assert.equal(source.gets.length, 0);
    assert.equal((await resolver.resolve("Kelvin")).skill.name, "kelvin");
  });

  test("list skips a listed name that is not ASCII, with a diagnostic", async () => {
    const storage = createMemoryStorage({
      initial: { "kelvin.md": skillDoc("kelvin"), "\u212Aelvin.md": skillDoc("kelvin") },
    });
    const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
    const { skills, diagnostics } = await resolver.list();
    assert.deepEqual(skills.map((s) => s.name), ["kelvin"]);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].name, "\u212Aelvin");
    assert.match(diagnostics[0].message, /is not a valid skill name; skipped/);
  });

  test("names are matched case-insensitively (featureCounts finds featurecounts)", async () => {
    const source = countingSource("builtin", { featurecounts: skillDoc("featurecounts") });
    const hit = await createResolver({ sources: [source] }).resolve("featureCounts");
    assert.equal(hit.skill.name, "featurecounts");
  });

  test("a missing skill throws SkillNotFoundError listing the sources asked", async () => {
    const resolver = createResolver({
      sources: [countingSource("user", {}), countingSource("builtin", {})],
    });
    const error = await resolver.resolve("nope").catch((e) => e);
    assert.ok(error instanceof SkillNotFoundError && isSkillNotFoundError(error));
    assert.deepEqual(error.sources, ["user", "builtin"]);
    assert.match(error.message, /Cannot find skill "nope": asked user, builtin/);
  });

  test("a failing source is a diagnostic, never a failure of the whole resolve", async () => {
    const broken = failingSource("mcp:down", "connect ECONNREFUSED 127.0.0.1:9");
    const builtin = countingSource("builtin", { seqkit: skillDoc("seqkit") });
    const hit = await createResolver({ sources: [broken, builtin] }).resolve("seqkit");
    assert.equal(hit.source, "builtin");
    assert.deepEqual(
      hit.diagnostics.map((d) => [d.source, d.problem]),
      [["mcp:down", "error"]],
    );
  });

  test("a source that hangs is cut off at its own timeout and its signal is aborted", async () => {
    const slow = hangingSource("mcp:slow", 30);
    const builtin = countingSource("builtin", { bedtools: skillDoc("bedtools") });
    const hit = await createResolver({ sources: [slow, builtin] }).resolve("bedtools");
    assert.equal(hit.source, "builtin");
    assert.equal(hit.diagnostics[0].problem, "timeout");
    assert.match(hit.diagnostics[0].message, /did not answer within 30 ms/);
    assert.equal(slow.aborted, 1);
  });

  test("the overall deadline stops resolution and reports what was cut off", async () => {
    const a = hangingSource("a", 10_000);
    const b = countingSource("b", { bwa: skillDoc("bwa") });
    const resolver = createResolver({ sources: [a, b], deadlineMs: 40 });
    const error = await resolver.resolve("bwa").catch((e) => e);
    assert.ok(isSkillNotFoundError(error));
    assert.equal(error.diagnostics[0].problem, "timeout");
    assert.match(error.diagnostics[0].message, /deadline of 40 ms/);
    assert.equal(b.gets.length, 0, "nothing is asked after the deadline");
  });

  test("the caller's signal cancels the call with its reason", async () => {
    const controller = new AbortController();
    const resolver = createResolver({ sources: [hangingSource("a", 10_000)] });
    const pending = resolver.resolve("bwa", { signal: controller.signal });
    controller.abort(new Error("user cancelled"));
    await assert.rejects(pending, /user cancelled/);
  });
});

describe("list()", () => {
  test("every skill once, with its winning source and the sources it shadows", async () => {
    const user = countingSource("user", { samtools: skillDoc("samtools") });
    const community = countingSource("community", {
      samtools: skillDoc("samtools"),
      bwa: skillDoc("bwa"),
    });
    const builtin = countingSource("builtin", { bwa: skillDoc("bwa"), star: skillDoc("star") });
    const { skills, diagnostics } = await createResolver({ sources: [user, community, builtin] })
      .list();
    assert.deepEqual(
      skills.map((s) => [s.name, s.source, s.shadows]),
      [["bwa", "community", ["builtin"]], ["samtools", "user", ["community"]], [
        "star",
        "builtin",
        [],
      ]],
    );
    assert.equal(skills[2].description, "The star skill. Use when testing star.");
    assert.deepEqual(diagnostics, []);
  });

  test("invalid entries are reported and the next source's copy wins", async () => {
    const user = countingSource("user", { bwa: "not a skill", "Bad_Name": skillDoc("x") });
    const builtin = countingSource("builtin", { bwa: skillDoc("bwa") });
    const { skills, diagnostics } = await createResolver({ sources: [user, builtin] }).list();
    assert.deepEqual(skills.map((s) => [s.name, s.source, s.shadows]), [["bwa", "builtin", []]]);
    assert.deepEqual(
      diagnostics.map((d) => [d.source, d.name, d.problem]).sort(),
      [["user", "Bad_Name", "invalid"], ["user", "bwa", "invalid"]],
    );
  });

  test("a hanging or failing source is reported while the others are listed", async () => {
    const { skills, diagnostics } = await createResolver({
      sources: [
        hangingSource("slow", 30),
        failingSource("down", "boom"),
        countingSource("b", { bwa: skillDoc("bwa") }),
      ],
    }).list();
    assert.deepEqual(skills.map((s) => s.name), ["bwa"]);
    assert.deepEqual(diagnostics.map((d) => [d.source, d.problem]), [["slow", "timeout"], [
      "down",
      "error",
    ]]);
  });
});

describe("names, origins, shadows, deadlines and options", () => {
  const doc = (name: string) =>
    `---\nname: ${name}\ndescription: A skill. Use when testing.\n---\n`;

  /** A source that has `demo` when `has`, and whose `peek` says `says` (no `peek` when undefined). */
  function member(label: string, has: boolean, says?: boolean): SkillSource & { peeks: number } {
    const source: SkillSource & { peeks: number } = {
      label,
      peeks: 0,
      list: () => Promise.resolve(has ? ["demo"] : []),
      get: (name): Promise<SourceEntry | undefined> =>
        Promise.resolve(has && name === "demo" ? { text: doc(name) } : undefined),
    };
    if (says !== undefined) {
      source.peek = () => {
        source.peeks++;
        return Promise.resolve(says);
      };
    }
    return source;
  }

  test("a name that is not a string, or starts with a colon, is refused as a skill name", async () => {
    const resolver = createResolver({ sources: [member("team", true)] });
    await assert.rejects(resolver.resolve(42 as unknown as string), {
      name: "InvalidSkillNameError",
    });
    await assert.rejects(resolver.resolve(":demo"), { name: "InvalidSkillNameError" });
  });

  test("an origin no source has: SkillNotFoundError naming it and the sources there are", async () => {
    const resolver = createResolver({ sources: [member("team", true), member("mcp:lab", true)] });
    const error = await resolver.resolve("Nowhere:demo").catch((e) => e);
    assert.equal(error.name, "SkillNotFoundError");
    assert.deepEqual(error.sources, ["team", "mcp:lab"]);
    assert.deepEqual(error.diagnostics, [{
      source: "nowhere",
      name: "Nowhere:demo",
      problem: "error",
      message: 'no source is labelled "nowhere" (sources: team, mcp:lab)',
    }]);
    assert.equal((await resolver.resolve("LAB:demo")).source, "mcp:lab", "mcp: may be left out");
  });

  test("the caller's signal reaches the sources", async () => {
    let reason: unknown;
    const caller = new AbortController();
    const hanging: SkillSource = {
      label: "slow",
      list: () => Promise.resolve([]),
      get: (_name, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            reason = signal.reason;
            resolve(undefined);
          });
          queueMicrotask(() => caller.abort(new Error("the caller moved on"))); // while it reads
        }),
    };
    const pending = createResolver({ sources: [hanging], timeoutMs: 2_000 })
      .resolve("demo", { signal: caller.signal });
    await assert.rejects(pending, /the caller moved on/);
    assert.equal((reason as Error | undefined)?.message, "the caller moved on");
  });

  test("shadows: the lower sources whose listing has the name, not the winner or those above", async () => {
    const above = member("above", false, true); // its listing is stale: says yes, has none
    const winner = member("winner", true, true);
    const plain = member("plain", true); // no peek: cannot tell, so not named
    const lower = member("lower", true, true);
    const not = member("not", false, false);
    const hit = await createResolver({ sources: [above, winner, plain, lower, not] }).resolve(
      "demo",
    );
    assert.equal(hit.source, "winner");
    assert.deepEqual(hit.shadows, ["lower"]);
  });

  test("an origin:name lookup asks that source alone and names no shadows", async () => {
    const first = member("first", true, true);
    const second = member("second", true, true);
    const hit = await createResolver({ sources: [first, second] }).resolve("first:demo");
    assert.equal(hit.source, "first");
    assert.deepEqual(hit.shadows, []);
    assert.equal(second.peeks, 0);
  });

  test("list(): the resolver's deadline and the caller's signal reach the sources", async () => {
    const seen: unknown[] = [];
    const timers = new Set<ReturnType<typeof setTimeout>>();
    let onRead = () => {};
    const slow: SkillSource = {
      label: "slow",
      list: () => Promise.resolve(["demo"]),
      get: (_name, { signal }) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(undefined), 5_000); // bounded; cleared below
          timers.add(timer);
          signal.addEventListener("abort", () => {
            seen.push(signal.reason);
            clearTimeout(timer);
            resolve(undefined);
          });
          queueMicrotask(onRead);
        }),
    };
    try {
      const { diagnostics } = await createResolver({ sources: [slow], deadlineMs: 300 }).list();
      assert.deepEqual(diagnostics.map((d) => [d.name, d.problem, d.message]), [
        ["demo", "timeout", "list deadline of 300 ms passed"],
      ]);
      const caller = new AbortController();
      onRead = () => caller.abort(new Error("the caller moved on")); // while it reads
      const pending = createResolver({ sources: [slow] }).list({ signal: caller.signal });
      await assert.rejects(pending, /the caller moved on/);
      assert.equal((seen.at(-1) as Error).message, "the caller moved on");
    } finally {
      for (const t of timers) clearTimeout(t);
    }
  });

  test("the resolver's timeoutMs bounds each source", async () => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const slow: SkillSource = {
      label: "slow",
      list: () => Promise.resolve(["demo"]),
      // Answers after 2 s (bounded; cleared at the end): long past the resolver's 200 ms.
      get: (name) =>
        new Promise((resolve) =>
          void timers.push(setTimeout(() => resolve({ text: doc(name) }), 2_000))
        ),
    };
    try {
      const error = await createResolver({ sources: [slow], timeoutMs: 200 }).resolve("demo")
        .catch((e) => e);
      assert.equal(error.name, "SkillNotFoundError");
      assert.deepEqual(error.diagnostics.map((d: { problem: string }) => d.problem), ["timeout"]);
      assert.match(error.diagnostics[0].message, /within 200 ms/);
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
  });

  test("the resolver's parse options reach the parser", async () => {
    const error = await createResolver({ sources: [member("team", true)], parse: { maxBytes: 16 } })
      .resolve("demo").catch((e) => e);
    assert.equal(error.name, "SkillNotFoundError");
    assert.deepEqual(error.diagnostics.map((d: { problem: string }) => d.problem), ["invalid"]);
    assert.equal(
      (await createResolver({ sources: [member("team", true)] }).resolve("demo")).source,
      "team",
    );
  });
});
