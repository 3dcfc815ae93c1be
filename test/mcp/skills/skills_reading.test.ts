// The skills extension client (SEP-2640) reading a listed skill (lib/mcp/skills/client.ts and
// _read.ts, _verify.ts), against stub MCP servers on 127.0.0.1: a read takes the content of the
// uri asked for, decodes a blob and refuses an empty answer; a short read fails with reason size,
// not digest; the served front matter is compared with the entry's value by value (fields it
// lacks fail the check); each refusal names the server and says what was expected.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadSkill, readSkillFile } from "../../../lib/mcp/skills/client.ts";
import { BODY, entry, loadFailure, SELF, sha, stub } from "./_skills.ts";

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

test("a short read fails with reason size, not digest", async () => {
  const error = await loadFailure(entry(), BODY.slice(0, -2));
  assert.deepEqual([error?.name, error?.reason], ["SkillVerificationError", "size"]);
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

test("a served document whose front matter lacks fields the entry lists fails the front-matter check", async () => {
  const error = await loadFailure(
    entry({
      frontmatter: { name: "pdf", description: "Fill PDF forms.", "allowed-tools": "Bash" },
    }),
    BODY,
  );
  assert.deepEqual([error?.name, error?.reason], ["SkillVerificationError", "frontmatter"]);
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
