import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { isSkillNotFoundError, SkillNotFoundError } from "../../lib/resolve/errors.ts";
import { isInvalidSkillNameError } from "../../lib/skill/errors.ts";
import { createStorageSource } from "../../lib/resolve/storage_source.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import {
  countingSource,
  delayedSource,
  failingSource,
  hangingSource,
  skillDoc,
} from "./_helpers.ts";

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
