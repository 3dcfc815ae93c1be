// The resolver's parse cache, rules no test held under mutation: an answer is reused only while
// the source's text, format and location all stay the same; a change of any one is parsed anew;
// the answer handed out is frozen at every depth, so a caller cannot change what the next caller
// gets; and a source with another name's document is refused every time, cached or not. Through
// the public resolver over an in-memory source.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createResolver } from "../../lib/resolve/resolver.ts";
import type { SkillSource, SourceEntry } from "../../lib/resolve/types.ts";

const MD = (description: string) =>
  `---\nname: demo\ndescription: ${description}\ntags: [a, b]\n---\n\n## Concepts\n\n- one\n`;
const TOML = '[meta]\nname = "demo"\ndescription = "From TOML. Use when testing."\n';

function source(entry: () => SourceEntry | undefined): SkillSource {
  return {
    label: "mem",
    get: () => Promise.resolve(entry()),
    list: () => Promise.resolve(["demo"]),
  };
}

test("an answer is reused while text, format and location stay; any change is parsed anew", async () => {
  let entry: SourceEntry = { text: MD("First."), location: "demo.md" };
  const resolver = createResolver({ sources: [source(() => entry)] });
  const first = await resolver.resolve("demo");
  assert.equal(first.skill.description, "First.");
  assert.equal((await resolver.resolve("demo")).skill.description, "First.");
  entry = { text: MD("Second."), location: "demo.md" };
  assert.equal((await resolver.resolve("demo")).skill.description, "Second.");
  entry = { text: MD("Second."), location: "demo/SKILL.md" };
  assert.equal((await resolver.resolve("demo")).location, "demo/SKILL.md");
  entry = { text: TOML, location: "demo/SKILL.md", format: "toml" };
  assert.equal((await resolver.resolve("demo")).skill.description, "From TOML. Use when testing.");
  entry = { text: TOML, location: "demo/SKILL.md", format: "markdown" };
  const asMarkdown = await resolver.resolve("demo").then(() => undefined, (e) => e);
  assert.ok(asMarkdown, "the same text read as Markdown is parsed again, and fails");
});

test("the answer handed out is frozen at every depth", async () => {
  const resolver = createResolver({
    sources: [source(() => ({ text: MD("Frozen."), location: "demo.md" }))],
  });
  const hit = await resolver.resolve("demo");
  assert.throws(() => {
    (hit.skill as { description: string }).description = "changed";
  }, TypeError);
  assert.ok(Object.isFrozen(hit.skill.tags), "inner arrays are frozen too");
  assert.equal((await resolver.resolve("demo")).skill.description, "Frozen.");
});

test("two skills of one source are both remembered: neither is parsed again", async () => {
  const doc = (name: string) =>
    `---\nname: ${name}\ndescription: ${name} notes. Use when testing.\n---\nBody\n`;
  const two: SkillSource = {
    label: "mem",
    get: (name) => Promise.resolve({ text: doc(name), location: `${name}.md` }),
    list: () => Promise.resolve(["a", "b"]),
  };
  const resolver = createResolver({ sources: [two] });
  const a = await resolver.resolve("a");
  const b = await resolver.resolve("b");
  assert.equal((await resolver.resolve("a")).skill, a.skill, "the same parsed skill");
  assert.equal((await resolver.resolve("b")).skill, b.skill);
});

test("a document that does not parse is named by its location, else by its source's label", async () => {
  const bad = "---\nname: demo\ndescription: [1, 2]\n---\nBody\n";
  const messages = async (entry: SourceEntry) => {
    const failed = await createResolver({ sources: [source(() => entry)] }).resolve("demo")
      .then(() => assert.fail("resolved"), (e) => e as { diagnostics: { message: string }[] });
    return failed.diagnostics.map((d) => d.message).join("\n");
  };
  assert.match(await messages({ text: bad, location: "team/demo.md" }), /\(team\/demo\.md:3\)/);
  assert.match(await messages({ text: bad }), /\(mem:3\)/);
});
