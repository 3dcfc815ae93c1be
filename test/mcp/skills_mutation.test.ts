// Rules of the skills extension client (SEP-2640) that the mutation run of lib/mcp/skills found
// unheld: each entry check and its reason, paging (next cursor, repeated cursor, the page cap),
// reads that answer several contents or a blob or nothing, and the front matter compared as JSON.
// Through the public client against a stub MCP server on 127.0.0.1 that answers whatever a test
// gives it (a real server never lists a broken entry).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import http from "node:http";
import { test } from "node:test";
import { connect } from "../../lib/mcp/client/client.ts";
import {
  getSkillEntry,
  listSkillEntries,
  loadSkill,
  readSkillFile,
} from "../../lib/mcp/skills/client.ts";
import { MAX_SKILL_FILES } from "../../lib/mcp/skills/extension.ts";
import type { SkillEntry } from "../../lib/mcp/skills/types.ts";
import { listenLocal } from "./_servers.ts";

const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const BODY = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n\nBody.\n";
const SELF = { uri: "skill://pdf/SKILL.md", digest: sha(BODY), size: BODY.length };
const entry = (over: Record<string, unknown> = {}): SkillEntry => ({
  uri: "skill://pdf/SKILL.md",
  frontmatter: { name: "pdf", description: "Fill PDF forms." },
  resources: [SELF],
  ...over,
});

type Answer = (params: Record<string, unknown>) => unknown;

/** A 2026-07-28 server (skills extension declared unless `plain`) answering by `answers`. */
async function stub(answers: Record<string, Answer>, plain = false) {
  const extensions = plain ? {} : { "io.modelcontextprotocol/skills": {} };
  const all: Record<string, Answer> = {
    "server/discover": () => ({
      supportedVersions: ["2026-07-28"],
      capabilities: { resources: {}, extensions },
    }),
    ...answers,
  };
  const calls: string[] = [];
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const rpc = JSON.parse(body);
    calls.push(rpc.method);
    const result = all[rpc.method]?.(rpc.params ?? {}) ?? {};
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result }));
  });
  const listening = await listenLocal(server);
  const client = await connect({ name: "stub", url: `http://127.0.0.1:${listening.port}/mcp` });
  return {
    client,
    calls,
    close: async () => {
      await client.close();
      await listening.close();
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
    const { skills } = await listSkillEntries(s.client);
    assert.deepEqual(skills.map((e) => e.uri), ["skill://pdf/SKILL.md", "skill://x/pdf/SKILL.md"]);
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
    assert.match(error.message, /more than 100 pages/);
    assert.equal(endless.calls.filter((m) => m === "skills/list").length, 100);
  } finally {
    await endless.close();
  }
});

test("a server without the extension is refused before any request; a broken skills/get is invalid", async () => {
  const plain = await stub({ "skills/list": () => ({ skills: [entry()] }) }, true);
  try {
    for (const call of [listSkillEntries(plain.client), getSkillEntry(plain.client, SELF.uri)]) {
      const error = await call.catch((e) => e);
      assert.equal(error?.name, "ProtocolError");
      assert.match(error.message, /does not declare io\.modelcontextprotocol\/skills/);
    }
    assert.deepEqual(plain.calls.filter((m) => m.startsWith("skills/")), []);
  } finally {
    await plain.close();
  }
  const broken = await stub({ "skills/get": () => ({ skill: entry({ resources: [] }) }) });
  try {
    const error = await getSkillEntry(broken.client, SELF.uri).catch((e) => e);
    assert.deepEqual([error?.name, error?.reason], ["SkillVerificationError", "invalid"]);
    assert.match(error.message, /invalid skill entry: resources does not list SKILL\.md/);
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
      frontmatter: { name: "pdf", description: "Fill PDF forms.", metadata: { tags: ["a"] } },
    }).catch((e) => e);
    assert.equal(other?.reason, "frontmatter", "an array of another length differs");
    const empty = { uri: "skill://pdf/empty.md", digest: sha(""), size: 0 };
    const error = await readSkillFile(s.client, { ...withFront, resources: [empty] }, empty.uri)
      .catch((e) => e);
    assert.equal(error?.name, "ProtocolError");
    assert.match(error.message, /skill:\/\/pdf\/empty\.md came back empty/);
  } finally {
    await s.close();
  }
});
