// How the resolver parses a source's entries and what it remembers of them (lib/resolve/_query.ts
// parseEntry, the resolver's parse cache), over memory storage and real files: an entry without a
// format is detected; a parse error names the entry's location, else its source; warnings reach
// the answer; a warm resolve answers from memory after one metadata check, reused only while the
// text, format and location stay, frozen at every depth; an edit is never hidden.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  createMemoryStorage,
  createResolver,
  createStorageSource,
  type SkillSource,
} from "../../lib/mod.ts";
import type { SourceEntry } from "../../lib/resolve/mod.ts";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { counted } from "./_helpers.ts";

const doc = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}. Use when testing.\n---\nBody\n`;

test("a warm resolve reads nothing and returns the same frozen skill", async () => {
  const { storage, gets } = counted(
    createMemoryStorage({ initial: { "a.md": doc("a", "First") } }),
  );
  const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
  const first = await resolver.resolve("a");
  const reads = gets.length;
  const second = await resolver.resolve("a");
  assert.equal(gets.length, reads, "no read on the warm call");
  assert.equal(second.skill, first.skill);
  assert.ok(Object.isFrozen(first.skill) && Object.isFrozen(first.skill.tags));
  assert.throws(() => (first.skill.tags as string[]).push("x"), TypeError);
  await storage.set("a.md", doc("a", "Second"));
  assert.match((await resolver.resolve("a")).skill.description, /^Second/);
});

test("an unchanged list() parses nothing; a changed entry is parsed again", async () => {
  let text = doc("b", "One");
  let reads = 0;
  const source: SkillSource = {
    label: "team",
    get: () => (reads++, Promise.resolve({ text })),
    list: () => Promise.resolve(["b"]),
  };
  const resolver = createResolver({ sources: [source] });
  const [first] = (await resolver.list()).skills;
  const [again] = (await resolver.list()).skills;
  assert.equal(again.skill, first.skill, "same text: the parsed skill is reused");
  assert.equal(reads, 2);
  text = doc("b", "Two");
  const [changed] = (await resolver.list()).skills;
  assert.notEqual(changed.skill, first.skill);
  assert.match(changed.description, /^Two/);
});

test("misses and lower layouts never hide a new file", async () => {
  const storage = createMemoryStorage({ initial: { "c.toml": "" } });
  await storage.set(
    "c.toml",
    '[meta]\nname = "c"\ndescription = "From TOML. Use when testing."\n',
  );
  const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
  assert.match((await resolver.resolve("c")).skill.description, /^From TOML/);
  await storage.set("c.md", doc("c", "From Markdown"));
  assert.match((await resolver.resolve("c")).skill.description, /^From Markdown/);
  await assert.rejects(resolver.resolve("d"), /Cannot find skill "d"/);
  await storage.set("d/SKILL.md", doc("d", "A folder skill"));
  assert.match((await resolver.resolve("d")).skill.description, /^A folder skill/);
});

test("fs: an edit of the same size in the same instant is seen, and so is one after settling", async () => {
  const root = await mkdtemp(join(tmpdir(), "skillmux-cache-"));
  try {
    const file = join(root, "e.md");
    await writeFile(file, doc("e", "Alpha"));
    const { storage, gets } = counted(createFsStorage({ root }));
    const resolver = createResolver({ sources: [createStorageSource({ label: "user", storage })] });
    assert.match((await resolver.resolve("e")).skill.description, /^Alpha/);
    await writeFile(file, doc("e", "Bravo")); // same length, within the timestamp granularity
    assert.match((await resolver.resolve("e")).skill.description, /^Bravo/);

    await new Promise((resolve) => setTimeout(resolve, 2_100)); // let the file settle
    await resolver.resolve("e"); // remembered now that its timestamps can be trusted
    const before = gets.length;
    await resolver.resolve("e");
    assert.equal(gets.length, before, "a settled, unchanged file is not read again");
    await writeFile(file, doc("e", "Delta"));
    assert.match((await resolver.resolve("e")).skill.description, /^Delta/);
    await assert.rejects(resolver.resolve("f"));
    await writeFile(join(root, "f.md"), doc("f", "New"));
    assert.match((await resolver.resolve("f")).skill.description, /^New/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("fs version(): tags change with the value and with a folder's entries", async () => {
  const root = await mkdtemp(join(tmpdir(), "skillmux-version-"));
  try {
    const storage = createFsStorage({ root });
    assert.equal(await storage.version!("a.md"), undefined);
    await storage.set("a.md", "one");
    const first = await storage.version!("a.md");
    const folder = await storage.version!("");
    assert.equal(first?.settled, false, "just written: not settled");
    await storage.set("a.md", "two");
    assert.notEqual((await storage.version!("a.md"))?.tag, first?.tag);
    await storage.set("b.md", "new");
    assert.notEqual((await storage.version!(""))?.tag, folder?.tag);
    assert.equal(await storage.version!("a.md/"), undefined, "a file is not a folder");
    await assert.rejects(storage.version!("../x"), /not a valid|invalid/i);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

describe("parsing an entry", () => {
  const source = (entry: SourceEntry): SkillSource => ({
    label: "team",
    list: () => Promise.resolve(["demo"]),
    get: () => Promise.resolve(entry),
  });

  test("an entry without a format is detected: a legacy TOML skill parses", async () => {
    const text = '[meta]\nname = "demo"\ndescription = "From TOML. Use when testing."\n';
    const hit = await createResolver({ sources: [source({ text })] }).resolve("demo");
    assert.equal(hit.skill.description, "From TOML. Use when testing.");
    assert.equal(hit.skill.format, "toml");
  });

  test("a parse error names the entry's location", async () => {
    const resolver = createResolver({
      sources: [source({ text: "---\nname: demo\n", location: "team/demo/SKILL.md" })],
    });
    const { diagnostics } = await resolver.list();
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].problem, "invalid");
    assert.match(diagnostics[0].message, /team\/demo\/SKILL\.md/);
  });

  test("the parser's warnings reach the answer with their source, name and details", async () => {
    const text =
      "---\nname: demo\ndescription: Warned. Use when testing.\nflavour: mint\n---\nBody\n";
    const hit = await createResolver({ sources: [source({ text })] }).resolve("demo");
    const warning = hit.diagnostics.find((d) => d.problem === "warning");
    assert.ok(warning, JSON.stringify(hit.diagnostics));
    assert.equal(warning.source, "team");
    assert.equal(warning.name, "demo");
    assert.match(warning.message, /"flavour" is not a known skill field/);
    assert.equal(warning.details?.[0].message, warning.message);
  });
});

describe("the parse cache: reuse, freezing, names", () => {
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
    assert.equal(
      (await resolver.resolve("demo")).skill.description,
      "From TOML. Use when testing.",
    );
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
});
