// A tier's answers (lib/resolve/_query.ts, _list.ts; survivors of the third `resolve` run): a
// source that answers without text gets an "invalid" diagnostic naming it, in a lookup and in a
// listing, instead of failing the whole call with a TypeError; a local skill's answer carries no
// `requestedAllowedTools` at all; an empty group is no source (nothing found, nothing reported);
// and a source's `summaries()` gets the listing's signal.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createResolver, type SkillSource } from "../../lib/mod.ts";
import type { SourceCallOptions, SourceEntry } from "../../lib/resolve/mod.ts";

const doc = (name: string) =>
  `---\nname: ${name}\ndescription: Read from the text. Use when testing.\nallowed-tools: Read\n---\nBody\n`;

/** A source listing `names` whose `get` answers each of them with `entry(name)`. */
function source(label: string, names: string[], entry: (name: string) => unknown): SkillSource {
  return {
    label,
    list: () => Promise.resolve(names),
    get: (name) =>
      Promise.resolve((names.includes(name) ? entry(name) : undefined) as SourceEntry | undefined),
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
