// The skills extension client (SEP-2640) listing a server's skills (lib/mcp/skills/client.ts),
// against a stub MCP server on 127.0.0.1 that lists whatever entry a test gives it (a real server
// never lists a broken entry): each entry check and its reason (resources outside the folder or
// without SKILL.md, the uri's `/<name>/SKILL.md` ending, the 16 MiB cap on an entry's sum),
// paging (next cursor, repeated cursor, the page cap), a server without the extension, and the
// requests themselves (the caller's signal, retries after a 503).
import assert from "node:assert/strict";
import { test } from "node:test";
import { getSkillEntry, listSkillEntries } from "../../../lib/mcp/skills/client.ts";
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from "../../../lib/mcp/skills/extension.ts";
import { BUSY } from "../_skills_stub.ts";
import { entry, listing, SELF, sha, stub } from "./_skills.ts";

test("each broken entry is rejected with its own reason, and its uri when it has one", async () => {
  const many = Array.from({ length: MAX_SKILL_FILES }, (_, i) => ({
    uri: `skill://pdf/f${i}.md`,
    digest: sha(`${i}`),
    size: 1,
  }));
  const cases: Array<[unknown, string]> = [
    [null, "no uri"],
    [{ frontmatter: {} }, "no uri"],
    [entry({ frontmatter: { name: "pdf" } }), "frontmatter lacks name or description"],
    [entry({ frontmatter: { description: "x" } }), "frontmatter lacks name or description"],
    [entry({ frontmatter: "pdf" }), "frontmatter lacks name or description"],
    [entry({ resources: [SELF, { digest: SELF.digest, size: 1 }] }), "a resource has no uri"],
    [entry({ resources: [SELF, "skill://pdf/a.md"] }), "a resource has no uri"],
    [
      entry({ resources: [{ ...SELF, digest: SELF.digest.toUpperCase() }] }),
      "skill://pdf/SKILL.md: digest is not sha256:<64 lowercase hex>",
    ],
    [
      entry({ resources: [{ ...SELF, digest: `${SELF.digest}0` }] }),
      "skill://pdf/SKILL.md: digest is not sha256:<64 lowercase hex>",
    ],
    [
      entry({ resources: [{ ...SELF, digest: 7 }] }),
      "skill://pdf/SKILL.md: digest is not sha256:<64 lowercase hex>",
    ],
    [
      entry({ resources: [{ ...SELF, digest: `x${SELF.digest}` }] }),
      "skill://pdf/SKILL.md: digest is not sha256:<64 lowercase hex>",
    ],
    [
      entry({ resources: [{ ...SELF, digest: [SELF.digest] }] }),
      "skill://pdf/SKILL.md: digest is not sha256:<64 lowercase hex>",
    ],
    [entry({ resources: [{ ...SELF, size: -1 }] }), "skill://pdf/SKILL.md: bad size"],
    [entry({ resources: [{ ...SELF, size: 1.5 }] }), "skill://pdf/SKILL.md: bad size"],
    [entry({ resources: [{ ...SELF, size: "56" }] }), "skill://pdf/SKILL.md: bad size"],
    [
      entry({ resources: [SELF, SELF] }),
      "skill://pdf/SKILL.md: outside the skill or listed twice",
    ],
    [entry({ resources: [SELF, ...many] }), `more than ${MAX_SKILL_FILES} files`],
  ];
  const { skills, rejected } = await listing(cases.map(([e]) => e));
  assert.equal(skills.length, 0);
  assert.deepEqual(rejected.map((r) => r.reason), cases.map(([, reason]) => reason));
  assert.deepEqual(rejected.map((r) => r.uri), [
    undefined,
    undefined,
    ...cases.slice(2).map(() => "skill://pdf/SKILL.md"),
  ]);
  const edge = await listing([
    entry({ resources: [SELF, ...many.slice(1)] }),
    entry({ resources: [{ ...SELF, size: 0, digest: sha("") }] }),
  ]);
  assert.deepEqual(edge.rejected, [], `exactly ${MAX_SKILL_FILES} files, and size 0, are fine`);
  assert.equal(edge.skills.length, 2);
});

test("an entry listing a resource outside its skill folder is rejected at listing", async () => {
  for (const outside of ["skill://pdf-evil/steal.md", "skill://other/SKILL.md"]) {
    const { skills, rejected } = await listing([
      entry({ resources: [SELF, { uri: outside, digest: sha("x"), size: 1 }] }),
    ]);
    assert.equal(skills.length, 0, outside);
    assert.match(rejected[0]?.reason ?? "", /outside the skill/, outside);
  }
});

test("an entry whose resources omit its own SKILL.md is rejected at listing", async () => {
  const { skills, rejected } = await listing([
    entry({
      resources: [{ uri: "skill://pdf/references/FORMS.md", digest: sha("# Forms\n"), size: 8 }],
    }),
  ]);
  assert.equal(skills.length, 0);
  assert.equal(rejected[0]?.reason, "resources does not list SKILL.md");
});

test("an entry's uri must end in /<name>/SKILL.md; the front matter may name it otherwise", async () => {
  const bad = "skill://pdf/README.md";
  const refused = await listing([entry({ uri: bad, resources: [{ ...SELF, uri: bad }] })]);
  assert.equal(refused.skills.length, 0);
  assert.equal(refused.rejected[0]?.reason, "uri does not end in /<name>/SKILL.md");
  // The URI's last folder names the skill (SEP-2640), as a folder on disk does: a front matter
  // naming it "pdf" at skill://xpdf/SKILL.md is listed; the resolver loads it as xpdf, warning.
  const uri = "skill://xpdf/SKILL.md";
  const { skills, rejected } = await listing([entry({ uri, resources: [{ ...SELF, uri }] })]);
  assert.deepEqual(rejected, []);
  assert.equal(skills[0]?.uri, uri);
});

test("the 16 MiB cap applies to the sum of an entry's files, not to each file", async () => {
  const half = MAX_SKILL_BYTES / 2 + 1;
  const big = (n: number) => ({
    uri: `skill://pdf/data/${n}.bin`,
    digest: sha(`${n}`),
    size: half,
  });
  const over = await listing([entry({ resources: [SELF, big(1), big(2)] })]);
  assert.equal(over.skills.length, 0);
  assert.equal(over.rejected[0]?.reason, `more than ${MAX_SKILL_BYTES} bytes`);
  const under = await listing([entry({ resources: [SELF, big(1)] })]);
  assert.deepEqual(under.rejected, []);
  assert.equal(under.skills.length, 1);
  const rest = {
    uri: "skill://pdf/data/rest.bin",
    digest: sha("r"),
    size: MAX_SKILL_BYTES - SELF.size,
  };
  const exactly = await listing([entry({ resources: [SELF, rest] })]);
  assert.deepEqual(exactly.rejected, [], "a sum of exactly 16 MiB is within the cap");
});

test("skills/list follows nextCursor, stops at a repeated or empty cursor, and caps the pages", async () => {
  const pages: Record<string, unknown> = {
    "": { skills: [entry()], nextCursor: "b" },
    b: {
      skills: [entry({ uri: "skill://x/pdf/SKILL.md", resources: "dynamic" })],
      nextCursor: "c",
    },
    c: { skills: "not a list", nextCursor: "b" },
  };
  const s = await stub({ "skills/list": (p) => pages[(p.cursor as string) ?? ""] });
  try {
    const { skills, rejected } = await listSkillEntries(s.client);
    assert.deepEqual(skills.map((e) => e.uri), ["skill://pdf/SKILL.md", "skill://x/pdf/SKILL.md"]);
    assert.deepEqual(rejected, [], "a page whose skills is not a list adds nothing");
    assert.equal(s.calls.filter((m) => m === "skills/list").length, 3);
  } finally {
    await s.close();
  }
  const empty = await stub({ "skills/list": () => ({ skills: [entry()], nextCursor: "" }) });
  try {
    assert.equal((await listSkillEntries(empty.client)).skills.length, 1);
    assert.equal(empty.calls.filter((m) => m === "skills/list").length, 1);
  } finally {
    await empty.close();
  }
  let n = 0;
  const endless = await stub({ "skills/list": () => ({ skills: [], nextCursor: `p${n++}` }) });
  try {
    const error = await listSkillEntries(endless.client).catch((e) => e);
    assert.equal(error?.name, "ProtocolError");
    assert.equal(error.message, "stub: skills/list has more than 100 pages");
    assert.equal(error.server, "stub");
    assert.equal(endless.calls.filter((m) => m === "skills/list").length, 100);
  } finally {
    await endless.close();
  }
});

test("a server without the extension is refused before any request; a broken skills/get is invalid", async () => {
  const plain = await stub({ "skills/list": () => ({ skills: [entry()] }) }, true);
  try {
    const calls = [listSkillEntries(plain.client), getSkillEntry(plain.client, SELF.uri)];
    // Caught as made: awaiting them one by one would leave the second rejection unhandled a moment.
    for (const error of await Promise.all(calls.map((call) => call.catch((e) => e)))) {
      assert.equal(error?.name, "ProtocolError");
      assert.equal(
        error.message,
        "stub: the server does not declare io.modelcontextprotocol/skills",
      );
      assert.equal(error.server, "stub");
    }
    assert.deepEqual(plain.calls.filter((m) => m.startsWith("skills/")), []);
  } finally {
    await plain.close();
  }
  const broken = await stub({ "skills/get": () => ({ skill: entry({ resources: [] }) }) });
  try {
    const error = await getSkillEntry(broken.client, SELF.uri).catch((e) => e);
    assert.deepEqual([error?.name, error?.reason], ["SkillVerificationError", "invalid"]);
    assert.equal(error.message, "stub: invalid skill entry: resources does not list SKILL.md");
    assert.equal(error.server, "stub");
  } finally {
    await broken.close();
  }
});

test("a server whose extensions are missing or null offers no skills (no TypeError)", async () => {
  for (const capabilities of [{ resources: {} }, { resources: {}, extensions: null }]) {
    const s = await stub({ "skills/list": () => ({ skills: [entry()] }) }, false, capabilities);
    try {
      const error = await listSkillEntries(s.client).then(() => undefined, (e) => e);
      assert.equal(error?.name, "ProtocolError", JSON.stringify(capabilities));
    } finally {
      await s.close();
    }
  }
});

test("the caller's signal reaches skills/list and skills/get", async () => {
  const s = await stub({
    "skills/list": () => ({ skills: [entry()] }),
    "skills/get": () => ({ skill: entry() }),
  });
  try {
    const signal = AbortSignal.abort(new Error("stop"));
    for (
      const call of [
        listSkillEntries(s.client, { signal }),
        getSkillEntry(s.client, SELF.uri, { signal }),
      ]
    ) {
      const error = await call.then(() => undefined, (e) => e);
      assert.ok(error, "an aborted call does not answer");
    }
    assert.deepEqual(s.calls.filter((m) => m.startsWith("skills/")), []);
  } finally {
    await s.close();
  }
});

test("skills/list and skills/get are retried after a 503, as idempotent requests", async () => {
  const tries: Record<string, number> = {};
  const once = (method: string, result: unknown) => () =>
    (tries[method] = (tries[method] ?? 0) + 1) === 1 ? BUSY : result;
  const s = await stub({
    "skills/list": once("list", { skills: [entry()] }),
    "skills/get": once("get", { skill: entry() }),
  });
  try {
    assert.equal((await listSkillEntries(s.client)).skills.length, 1);
    assert.equal((await getSkillEntry(s.client, SELF.uri)).uri, SELF.uri);
    assert.deepEqual(tries, { list: 2, get: 2 });
  } finally {
    await s.close();
  }
});
