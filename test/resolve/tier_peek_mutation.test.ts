// A group tier whose members can `peek` (lib/resolve/_query.ts askTier; survivors of the first
// `resolve` run), counted in each member's reads: a member whose cached listing lacks the name is
// not read; only the first member that has it is read, not those after it; a member above it that
// can only guess (no cached answer, listing without the name) is not read, one that cannot tell is;
// when the holder's copy is unusable the others, guesses included, get their turn in order; and
// with no holder every member that does not say no is asked. Every peek answers from the cache
// alone; "listed only" is asked of the members above a holder and of no one else; a tier of one
// source is read without a peek; and the members still reading when another answered are told why.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createResolver, type SkillSource } from "../../lib/mod.ts";
import type { SourceCallOptions, SourceEntry } from "../../lib/resolve/mod.ts";

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
  const none = [member("a", { cached: undefined }), member("b", { cached: undefined, has: true })];
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
