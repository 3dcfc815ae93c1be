// Rules of the skills extension client (SEP-2640) that the mutation run of lib/mcp/skills found
// unheld: each entry check and its reason, paging (next cursor, repeated cursor, the page cap),
// reads that answer several contents or a blob or nothing, and the front matter compared as JSON.
// Through the public client against a stub MCP server on 127.0.0.1 that answers whatever a test
// gives it (a real server never lists a broken entry).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import {
  getSkillEntry,
  listSkillEntries,
  loadSkill,
  readSkillFile,
} from "../../../lib/mcp/skills/client.ts";
import { MAX_SKILL_FILES } from "../../../lib/mcp/skills/extension.ts";
import type { SkillEntry } from "../../../lib/mcp/skills/types.ts";
import { type Answer, BUSY, startSkillsStub } from "../_skills_stub.ts";

const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const BODY = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n\nBody.\n";
const SELF = { uri: "skill://pdf/SKILL.md", digest: sha(BODY), size: BODY.length };
const entry = (over: Record<string, unknown> = {}): SkillEntry => ({
  uri: "skill://pdf/SKILL.md",
  frontmatter: { name: "pdf", description: "Fill PDF forms." },
  resources: [SELF],
  ...over,
});

/**
 * A connected client of a stub server (test/mcp/_skills_stub.ts) answering by `answers`.
 */
async function stub(
  answers: Record<string, Answer>,
  plain = false,
  capabilities?: Record<string, unknown>,
) {
  const server = await startSkillsStub(answers, plain, capabilities);
  const client = await connect({ name: "stub", url: server.url });
  return {
    client,
    calls: server.calls,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The listing of a stub listing `entries` on one page. */
async function listing(entries: unknown[]) {
  const s = await stub({ "skills/list": () => ({ skills: entries }) });
  try {
    return await listSkillEntries(s.client);
  } finally {
    await s.close();
  }
}

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

test("a read takes the content of the uri asked for, decodes a blob, and refuses an empty answer", async () => {
  const forms = "# Forms\n";
  const FORMS = { uri: "skill://pdf/FORMS.md", digest: sha(forms), size: forms.length };
  const listed = entry({
    frontmatter: { name: "pdf", description: "Fill PDF forms.", metadata: { tags: ["a", "b"] } },
    resources: [SELF, FORMS],
  });
  const body = "---\nname: pdf\nmetadata:\n  tags: [a, b]\ndescription: Fill PDF forms.\n" +
    "allowed-tools: Bash  Read\n---\n";
  const bodyFile = { ...SELF, digest: sha(body), size: body.length };
  const reads: Record<string, unknown> = {
    "skill://pdf/SKILL.md": [{ uri: "skill://other", text: "decoy" }, {
      uri: SELF.uri,
      text: body,
    }],
    "skill://pdf/FORMS.md": [{ uri: FORMS.uri, blob: Buffer.from(forms).toString("base64") }],
    "skill://pdf/empty.md": [],
  };
  const s = await stub({ "resources/read": (p) => ({ contents: reads[p.uri as string] }) });
  try {
    const withFront = { ...listed, resources: [bodyFile, FORMS] };
    const loaded = await loadSkill(s.client, {
      ...withFront,
      frontmatter: { ...withFront.frontmatter, "allowed-tools": "Bash  Read" },
    });
    assert.deepEqual(loaded.requestedAllowedTools, ["Bash", "Read"]);
    assert.equal(loaded.text, body);
    assert.equal(await readSkillFile(s.client, withFront, FORMS.uri), forms);
    const other = await loadSkill(s.client, {
      ...withFront,
      frontmatter: {
        name: "pdf",
        description: "Fill PDF forms.",
        metadata: { tags: ["a"] },
        "allowed-tools": "Bash  Read",
      },
    }).catch((e) => e);
    assert.equal(other?.reason, "frontmatter", "an array of another length differs");
    const empty = { uri: "skill://pdf/empty.md", digest: sha(""), size: 0 };
    const error = await readSkillFile(s.client, { ...withFront, resources: [empty] }, empty.uri)
      .catch((e) => e);
    assert.equal(error?.name, "ProtocolError");
    assert.equal(error.message, "stub: skill://pdf/empty.md came back empty");
    assert.equal(error.server, "stub");
  } finally {
    await s.close();
  }
});

/** Load a one-file skill whose served front matter is `yaml` and whose entry lists `front`. */
async function loadWith(yaml: string, front: Record<string, unknown>) {
  const body = `---\nname: pdf\ndescription: Fill PDF forms.\n${yaml}---\n`;
  const file = { uri: SELF.uri, digest: sha(body), size: body.length };
  const s = await stub({ "resources/read": () => ({ contents: [{ uri: SELF.uri, text: body }] }) });
  try {
    return await loadSkill(
      s.client,
      entry({
        frontmatter: { name: "pdf", description: "Fill PDF forms.", ...front },
        resources: [file],
      }),
    ).then((loaded) => loaded, (e) => e);
  } finally {
    await s.close();
  }
}

test("front matter is compared value by value: arrays, numbers, strings, objects", async () => {
  const differ: Array<[string, Record<string, unknown>]> = [
    ["tags: [a]\n", { tags: ["a", "b"] }],
    ["tags: [a, b]\n", { tags: ["a", "c"] }],
    ["tags: [x]\n", { tags: "x" }],
    ["tags: x\n", { tags: ["x"] }],
    ["version: 1\n", { version: 2 }],
    ["metadata: {}\n", { metadata: 5 }],
    ["metadata: 5\n", { metadata: {} }],
    ["note: abcd\n", { note: "abce" }],
  ];
  for (const [yaml, front] of differ) {
    const error = await loadWith(yaml, front);
    assert.equal(error?.name, "SkillVerificationError", `${yaml} vs ${JSON.stringify(front)}`);
    assert.equal(error.reason, "frontmatter");
    assert.equal(
      error.message,
      "stub: skill://pdf/SKILL.md: its front matter differs from the skill's entry",
    );
    assert.equal(error.server, "stub");
  }
  const same = await loadWith("metadata:\n  b: 1\n  a: [x, {c: 2}]\n", {
    metadata: { a: ["x", { c: 2 }], b: 1 },
  });
  assert.deepEqual(same.requestedAllowedTools, [], "no allowed-tools, none requested");
  const quoted = await loadWith('allowed-tools: " Bash  Read "\n', {
    "allowed-tools": " Bash  Read ",
  });
  assert.deepEqual(quoted.requestedAllowedTools, ["Bash", "Read"]);
});

test("each refusal of a read names the server and says what was expected", async () => {
  const s = await stub({
    "resources/read": () => ({ contents: [{ uri: SELF.uri, text: `${BODY}x` }] }),
  });
  try {
    const failure = (p: Promise<unknown>) => p.then(() => undefined, (e) => e);
    const unlisted = await failure(readSkillFile(s.client, entry(), "skill://pdf/x.md"));
    assert.deepEqual([unlisted?.reason, unlisted?.server, unlisted?.message], [
      "unlisted",
      "stub",
      "stub: skill://pdf/x.md is not listed in the skill's entry",
    ]);
    const size = await failure(readSkillFile(s.client, entry(), SELF.uri));
    assert.deepEqual([size?.reason, size?.server, size?.message], [
      "size",
      "stub",
      `stub: skill://pdf/SKILL.md is ${BODY.length + 1} bytes; its entry says ${BODY.length}`,
    ]);
    const other = { ...SELF, size: BODY.length + 1 };
    const digest = await failure(readSkillFile(s.client, entry({ resources: [other] }), SELF.uri));
    assert.deepEqual([digest?.reason, digest?.server, digest?.message], [
      "digest",
      "stub",
      "stub: skill://pdf/SKILL.md does not match its digest",
    ]);
    const dynamic = await failure(loadSkill(s.client, entry({ resources: "dynamic" })));
    assert.deepEqual([dynamic?.reason, dynamic?.server, dynamic?.message], [
      "dynamic",
      "stub",
      "stub: skill://pdf/SKILL.md is dynamic (no digests)",
    ]);
  } finally {
    await s.close();
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
