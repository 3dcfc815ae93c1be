// Rules of the skills extension client (SEP-2640, issue 19), through the public client against a
// stub MCP server on 127.0.0.1 that lists whatever entry a test gives it (a real server never
// lists a broken entry): resources outside the folder or without SKILL.md, front matter that lacks
// listed fields, the uri's `/<name>/SKILL.md` ending, short reads, and the cap on an entry's sum.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import http from "node:http";
import { test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { listSkillEntries, loadSkill } from "../../../lib/mcp/skills/client.ts";
import { MAX_SKILL_BYTES } from "../../../lib/mcp/skills/extension.ts";
import type { SkillEntry } from "../../../lib/mcp/skills/types.ts";
import { listenLocal } from "../_servers.ts";

const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const BODY = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n\nBody.\n";
const SELF = { uri: "skill://pdf/SKILL.md", digest: sha(BODY), size: BODY.length };

/** A 2026-07-28 server listing `entries` whose reads of any uri answer `served`. */
async function stubServer(entries: unknown[], served = BODY) {
  const results: Record<string, unknown> = {
    "server/discover": {
      supportedVersions: ["2026-07-28"],
      capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
    },
    "skills/list": { skills: entries },
  };
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const rpc = JSON.parse(body);
    const result = rpc.method === "resources/read"
      ? { contents: [{ uri: rpc.params.uri, text: served }] }
      : results[rpc.method] ?? {};
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result }));
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}/mcp`, close: listening.close };
}

/** The listing of a stub serving `entries`. */
async function listing(entries: unknown[]) {
  const stub = await stubServer(entries);
  try {
    const client = await connect({ name: "stub", url: stub.url });
    try {
      return await listSkillEntries(client);
    } finally {
      await client.close();
    }
  } finally {
    await stub.close();
  }
}

/** The error of loading the single entry a stub lists, serving `served`. */
async function loadFailure(entry: SkillEntry, served: string) {
  const stub = await stubServer([entry], served);
  try {
    const client = await connect({ name: "stub", url: stub.url });
    try {
      const { skills, rejected } = await listSkillEntries(client);
      assert.deepEqual(rejected, []);
      return await loadSkill(client, skills[0]).then(() => undefined, (e) => e);
    } finally {
      await client.close();
    }
  } finally {
    await stub.close();
  }
}

const entry = (over: Partial<SkillEntry> = {}): SkillEntry => ({
  uri: "skill://pdf/SKILL.md",
  frontmatter: { name: "pdf", description: "Fill PDF forms." },
  resources: [SELF],
  ...over,
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

test("a served document whose front matter lacks fields the entry lists fails the front-matter check", async () => {
  const error = await loadFailure(
    entry({
      frontmatter: { name: "pdf", description: "Fill PDF forms.", "allowed-tools": "Bash" },
    }),
    BODY,
  );
  assert.deepEqual([error?.name, error?.reason], ["SkillVerificationError", "frontmatter"]);
});

test("a short read fails with reason size, not digest", async () => {
  const error = await loadFailure(entry(), BODY.slice(0, -2));
  assert.deepEqual([error?.name, error?.reason], ["SkillVerificationError", "size"]);
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
