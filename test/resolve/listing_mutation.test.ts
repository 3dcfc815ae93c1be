// A listing's own rules (lib/resolve/_list.ts; survivors of the first `resolve` run): a listing
// that is not frozen is checked again on every call, so a summary changed in place shows; the
// skills a source lists are read in name order, whatever order it listed them in, so their
// diagnostics come in that order; no read starts once the list deadline passed; and a remote skill
// read for the listing has its `allowed-tools` requested, not granted.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createResolver, type SkillSource } from "../../lib/mod.ts";
import type { SourceEntry } from "../../lib/resolve/mod.ts";

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
