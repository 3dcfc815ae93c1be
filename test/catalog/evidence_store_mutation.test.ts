// Evidence, held entries, ids and the saved keyword index, where the fourth mutation run of
// `catalog` found them loosely held: everyday words count a third in every part of their list; an
// entry holds only the words it was given; a description weighs like tags only without tags and
// tasks; one-letter query words say nothing, two-letter ones do; a query is lowercased, not
// case-folded; an example task anchors only with two query words in it. A held entry with exactly
// the floor's evidence fits, and ten held entries are all named. An id made unique keeps 55
// characters of its name and 8 hex digits. The index storage: a warm build makes no round trip,
// a load rewrites only the list, a failed save is tried again, a loaded save counts as used
// beside a new one, and a damaged list (not an array, not JSON, naming other keys) neither keeps
// nor deletes what it should not. Public API (`createKeywordIndex`, `createCatalog`,
// `selectForRequest`), real memory storages; `forgetProcessSegments()` stands for a new process.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createStorageSource,
  selectForRequest,
  type Storage,
} from "../../lib/mod.ts";
import { createKeywordIndex, type KeywordDocument } from "../../lib/catalog/mod.ts";
import { forgetProcessSegments } from "../../lib/catalog/build/_index_store.ts";

/** The evidence of document `id` for `query`, in an index of `docs`. */
async function evidenceOf(docs: KeywordDocument[], query: string, id: string) {
  const hit = (await createKeywordIndex(docs)).search(query).find((h) => h.id === id);
  assert.ok(hit, `"${id}" is a hit of "${query}"`);
  return hit.evidence;
}

describe("evidence", () => {
  test("everyday words count a third wherever they stand in the list; a specific one in full", async () => {
    const docs = ["compare", "convert", "word", "write", "frobnicate"].map((name) => ({
      id: name,
      name,
      description: "Keeps the ledger",
    }));
    // A name word weighs 3: a third of it, halved with no specific word to anchor it, plus a
    // third of the bonus for naming the entry whole (1).
    for (const everyday of ["compare", "convert", "word", "write"]) {
      assert.equal(await evidenceOf(docs, everyday, everyday), 0.83, everyday);
    }
    assert.equal(await evidenceOf(docs, "frobnicate", "frobnicate"), 4);
  });

  test("an entry holds only the words it was given: no title, tags, tasks or keywords invented", async () => {
    const docs = [{
      id: "implants",
      name: "implant-catalog",
      description: "Lists knee implants and their sizes",
    }];
    // "knee" in the description of an entry with nothing else weighs like a tag (2), "implant" in
    // the name 3; "Stryker" is nowhere in the entry.
    assert.equal(await evidenceOf(docs, "Stryker knee implant", "implants"), 5);
  });

  test("a description weighs like tags only for an entry with neither tags nor tasks", async () => {
    const docs = [
      { id: "tagged", name: "alpha", description: "Frobnicates widgets", tags: ["gadgets"] },
      { id: "tasked", name: "beta", description: "Frobnicates widgets", tasks: ["polish gadgets"] },
      { id: "bare", name: "gamma", description: "Frobnicates widgets" },
    ];
    // 1.5 and 2 times the word's specificity (held by all three: 0.57).
    assert.equal(await evidenceOf(docs, "frobnicate", "tagged"), 0.85);
    assert.equal(await evidenceOf(docs, "frobnicate", "tasked"), 0.85);
    assert.equal(await evidenceOf(docs, "frobnicate", "bare"), 1.14);
  });

  test("a one-letter query word says nothing; a two-letter one counts", async () => {
    const docs = [
      { id: "ggplot", name: "ggplot", description: "Draws charts", tags: ["r", "plot"] },
      // A two-letter word counts whole; as a part of a compound (qc-report) it no longer does
      // (issue 47: "sci-fi" found ko-fi by "fi").
      { id: "qc", name: "qc", description: "Summarises read quality" },
    ];
    assert.equal(await evidenceOf(docs, "plot with r", "ggplot"), 2, "the tag plot only");
    assert.equal(await evidenceOf(docs, "qc", "qc"), 4, "qc is the whole name (3 + 1)");
  });

  test("a query is lowercased, not case-folded: Straße is straße, not strasse", async () => {
    const docs = [{ id: "street", name: "straße", description: "Finds a street on the map" }];
    assert.equal(await evidenceOf(docs, "Straße", "street"), 4); // the whole name: 3 + 1
  });

  test("an example task anchors only when it holds two of the query's words", async () => {
    const docs = [{
      id: "zeta",
      name: "zeta",
      description: "Keeps the ledger",
      tasks: ["frobnicate widgets"],
      keywords: ["frobnicate widgets"],
    }];
    // "frobnicate" is in a task only (1.5): halved, as "gizmos" is not in that task too.
    assert.equal(await evidenceOf(docs, "frobnicate gizmos", "zeta"), 0.75);
    assert.equal(await evidenceOf(docs, "frobnicate widgets", "zeta"), 3);
  });
});

const SKILL = (name: string, description: string, tags: string[] = []) =>
  `---\nname: ${name}\ndescription: ${description}\n${
    tags.length > 0 ? `tags: [${tags.join(", ")}]\n` : ""
  }---\nNotes.\n`;

test("ten held entries are all named, one with exactly the floor's evidence as fitting", async () => {
  const initial: Record<string, string> = {
    // Its one tag is the request's word: evidence 2, the floor.
    "bam-tidy.md": SKILL("bam-tidy", "Tidies headers of alignment files.", ["samtools"]),
  };
  for (let i = 0; i < 9; i++) initial[`note-${i}.md`] = SKILL(`note-${i}`, `Keeps note ${i}.`);
  const catalog = await createCatalog({
    resolver: createResolver({
      sources: [createStorageSource({ label: "user", storage: createMemoryStorage({ initial }) })],
    }),
    approvals: { storage: createMemoryStorage(), local: "require" },
  });
  try {
    const selection = await selectForRequest(catalog, "samtools");
    const held = selection.held ?? [];
    assert.equal(held.length, 10);
    assert.deepEqual(held[0], {
      id: "bam-tidy",
      kind: "skill",
      source: "user",
      approval: "pending",
      fits: true,
    });
    assert.ok(held.slice(1).every((h) => !h.fits));
    const names = ["bam-tidy", ...Array.from({ length: 9 }, (_, i) => `note-${i}`)];
    assert.ok(
      selection.diagnostics.includes(
        "10 entries wait for approval and were not considered (1 would fit this request): " +
          names.map((n) => `${n} (new, user)`).join(", ") +
          "; approve with skillmux approve <id> or catalog.approve([id])",
      ),
      selection.diagnostics.join("\n"),
    );
  } finally {
    catalog.dispose();
  }
});

test("an id made unique keeps 55 characters of a long name and 8 hex digits", async () => {
  // A host function and a user skill of the same 58-character name: the skill's id is made
  // unique. (This name's disambiguator happens to start with a 0, which must stay.)
  const name = "sort-and-index-aligned-reads-of-a-bam-file-by-coordinate-3";
  const catalog = await createCatalog({
    functions: [{ name, description: "Sorts a BAM file", handler: () => "sorted" }],
    resolver: createResolver({
      sources: [createStorageSource({
        label: "user",
        storage: createMemoryStorage({
          initial: { [`${name}.md`]: SKILL(name, "Notes on sorting BAM files.") },
        }),
      })],
    }),
  });
  try {
    const ids = catalog.entries.map((e) => `${e.kind} ${e.id}`).sort();
    assert.equal(ids.length, 2);
    assert.equal(ids[0], `function ${name}`);
    assert.match(ids[1], new RegExp(`^skill ${name.slice(0, 55)}_[0-9a-f]{8}$`));
  } finally {
    catalog.dispose();
  }
});

/** `inner`, logging each call under the kind of key (`list` or `save`) and failing some writes. */
function logged(inner: Storage, failSet: (key: string) => boolean = () => false) {
  const calls: string[] = [];
  const kind = (key: string) => key === "keyword-index.json" ? "list" : "save";
  const storage: Storage = {
    get: (key, options) => (calls.push(`get ${kind(key)}`), inner.get(key, options)),
    set: (key, value, options) => {
      calls.push(`set ${kind(key)}`);
      return failSet(key)
        ? Promise.reject(new Error("write refused"))
        : inner.set(key, value, options);
    },
    delete: (key, options) => (calls.push(`delete ${kind(key)}`), inner.delete(key, options)),
    keys: (prefix, options) => inner.keys(prefix, options),
  };
  return { storage, calls, take: () => calls.splice(0) };
}

const fn = (name: string) => ({ name, description: `Frobnicate the ${name}`, handler: () => name });
const list = async (storage: Storage) =>
  JSON.parse((await storage.get("keyword-index.json")) ?? "[]") as string[];

describe("the keyword index in a storage", () => {
  test("a warm build makes no round trip; a load rewrites only the list; nothing is written twice", async () => {
    forgetProcessSegments();
    const { storage, take } = logged(createMemoryStorage());
    const build = (indexStorage?: Storage) =>
      createCatalog({ functions: [fn("widgets")], ...(indexStorage ? { indexStorage } : {}) });
    await build(storage);
    assert.deepEqual(take(), ["get save", "set save", "get list", "set list"], "first process");
    await build(storage);
    assert.deepEqual(take(), [], "the same process again");
    forgetProcessSegments();
    await build(storage);
    assert.deepEqual(take(), ["get save", "get list", "set list"], "a new process loads");
    await build(storage);
    assert.deepEqual(take(), [], "and then asks nothing");
    // A process that indexed the entries before it had the storage does not write the save again.
    forgetProcessSegments();
    await build();
    await build(storage);
    assert.deepEqual(take(), ["get save", "get list", "set list"], "indexed here, saved there");
  });

  test("a save the storage refused is tried again by the next build of the process", async () => {
    forgetProcessSegments();
    let refuse = true;
    const inner = createMemoryStorage();
    const { storage } = logged(inner, (key) => refuse && key.startsWith("keyword-index/"));
    await createCatalog({ functions: [fn("gears")], indexStorage: storage });
    assert.deepEqual(await inner.keys("keyword-index/"), []);
    refuse = false;
    await createCatalog({ functions: [fn("gears")], indexStorage: storage });
    const saves = await inner.keys("keyword-index/");
    assert.equal(saves.length, 1);
    assert.deepEqual(await list(inner), saves);
  });

  /** A catalog of a host function and a user skill (two segments). */
  const twoSources = (indexStorage: Storage, skill: string) =>
    createCatalog({
      functions: [fn("levers")],
      resolver: createResolver({
        sources: [createStorageSource({
          label: "user",
          storage: createMemoryStorage({ initial: { "pulleys.md": SKILL("pulleys", skill) } }),
        })],
      }),
      indexStorage,
    });
  /** A first process that saves the host's segment, then the skill's: their keys, in that order. */
  async function hostThenSkill(storage: Storage) {
    forgetProcessSegments();
    await createCatalog({ functions: [fn("levers")], indexStorage: storage });
    await twoSources(storage, "Rigs pulleys.");
    const [host, skill] = await list(storage);
    assert.equal((await list(storage)).length, 2);
    return { host, skill };
  }

  test("a save loaded beside a changed source's new one counts as used: the old one goes first", async () => {
    const storage = createMemoryStorage();
    const { host, skill } = await hostThenSkill(storage);
    forgetProcessSegments();
    await twoSources(storage, "Rigs pulleys and blocks.");
    const now = await list(storage);
    assert.equal(now.length, 3);
    assert.deepEqual(now.slice(0, 2), [skill, host]);
  });

  test("a save that did not load and could not be replaced does not count as used", async () => {
    const inner = createMemoryStorage();
    const { host, skill } = await hostThenSkill(inner);
    await inner.set(host, "{ not json");
    forgetProcessSegments();
    const { storage } = logged(inner, (key) => key === host);
    await twoSources(storage, "Rigs pulleys.");
    assert.equal(await inner.get(host), "{ not json");
    assert.deepEqual(await list(inner), [host, skill]);
  });

  test("a list that is not an array is replaced by one naming the saves only", async () => {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    await storage.set("keyword-index.json", JSON.stringify({ saves: ["keyword-index/x"] }));
    await createCatalog({ functions: [fn("sprockets")], indexStorage: storage });
    assert.deepEqual(await list(storage), await storage.keys("keyword-index/"));
  });

  test("a list that is not JSON is replaced too: new saves are listed (so pruned) again", async () => {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    await storage.set("keyword-index.json", '["keyword-index/');
    await createCatalog({ functions: [fn("ratchets")], indexStorage: storage });
    const saves = await storage.keys("keyword-index/");
    assert.equal(saves.length, 1);
    assert.deepEqual(await list(storage), saves);
  });

  test("a save the list lost is listed again when a later process loads it", async () => {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    await createCatalog({ functions: [fn("sprockets")], indexStorage: storage });
    const saves = await storage.keys("keyword-index/");
    assert.equal(saves.length, 1);
    await storage.delete("keyword-index.json");
    forgetProcessSegments();
    const { storage: watched, take } = logged(storage);
    await createCatalog({ functions: [fn("sprockets")], indexStorage: watched });
    assert.deepEqual(take(), ["get save", "get list", "set list"], "loaded, not saved again");
    assert.deepEqual(await list(storage), saves, "listed again, so pruned in its turn");
  });

  test("a damaged list never deletes keys that only look like saves", async () => {
    forgetProcessSegments();
    const storage = createMemoryStorage();
    const hex = "ab".repeat(32);
    const lookalikes = [`backup/keyword-index/${hex}`, `keyword-index/${hex}.bak`];
    for (const key of lookalikes) await storage.set(key, "user data");
    // The look-alikes first, then 64 names of saves: one more save pushes the oldest out.
    const names = Array.from({ length: 64 }, (_, i) => `keyword-index/${"0".repeat(62)}${i + 10}`);
    await storage.set("keyword-index.json", JSON.stringify([...lookalikes, ...names]));
    await createCatalog({ functions: [fn("cogs")], indexStorage: storage });
    for (const key of lookalikes) assert.equal(await storage.get(key), "user data", key);
    const now = await list(storage);
    assert.equal(now.length, 64);
    assert.deepEqual(now.slice(0, 63), names.slice(1));
  });
});
