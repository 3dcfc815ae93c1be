// The resolver's own rules (lib/resolve/resolver.ts; survivors of the second `resolve` run):
// a name that is not a string, or starts with a colon, is refused as a skill name, not routed;
// an origin no source has is a SkillNotFoundError naming it and the sources there are; the
// caller's signal reaches the sources; and the shadows of an answer are the lower sources whose
// listing has the name: not the winner, not those above it, none for an `origin:name` lookup; the
// resolver's `timeoutMs` bounds each source, and its `parse` options reach the parser.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createResolver, type SkillSource } from "../../lib/mod.ts";
import type { SourceEntry } from "../../lib/resolve/mod.ts";

const doc = (name: string) => `---\nname: ${name}\ndescription: A skill. Use when testing.\n---\n`;

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
  const hit = await createResolver({ sources: [above, winner, plain, lower, not] }).resolve("demo");
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
