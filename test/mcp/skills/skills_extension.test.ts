// The skills extension (SEP-2640) client against serveSkills (both eras, a folder skill with
// supporting files) and against a server that lies (digest, size, front matter, unlisted file).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import http from "node:http";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import {
  getSkillEntry,
  listSkillEntries,
  loadSkill,
  offersSkills,
  readSkillFile,
  readSkillFileBytes,
} from "../../../lib/mcp/skills/client.ts";
import type { SkillEntry } from "../../../lib/mcp/skills/types.ts";
import { serveSkills } from "../../../lib/server/mod.ts";
import type { SkillsServer } from "../../../lib/server/types.ts";
import { listenLocal } from "../_servers.ts";

const SKILL = "---\nname: pdf\ndescription: Fill PDF forms. Use when a form must be filled.\n" +
  "allowed-tools: Bash Read\n---\n\nSee references/FORMS.md.\n";
let dir: string;
let server: SkillsServer;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillmux-sep2640-"));
  await mkdir(join(dir, "pdf", "references"), { recursive: true });
  await mkdir(join(dir, "pdf", "assets"), { recursive: true });
  await writeFile(join(dir, "pdf", "SKILL.md"), SKILL);
  await writeFile(join(dir, "pdf", "references", "FORMS.md"), "# Forms\n");
  await writeFile(join(dir, "pdf", "assets", "logo.bin"), new Uint8Array([0, 255, 1, 2]));
  server = await serveSkills({ folder: dir });
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("against serveSkills", () => {
  for (const protocolVersion of [undefined, "2025-11-25"]) {
    test(`entries with digests and supporting files; verified reads (${protocolVersion ?? "2026-07-28"})`, async () => {
      const client = await connect({ name: "team", url: server.url }, { protocolVersion });
      assert.ok(offersSkills(client));
      const { skills, rejected } = await listSkillEntries(client);
      assert.deepEqual(rejected, []);
      const entry = skills.find((s) => s.frontmatter.name === "pdf")!;
      assert.deepEqual((entry.resources as { uri: string }[]).map((r) => r.uri).sort(), [
        "skill://pdf/SKILL.md",
        "skill://pdf/assets/logo.bin",
        "skill://pdf/references/FORMS.md",
      ]);
      const loaded = await loadSkill(client, entry);
      assert.deepEqual([loaded.server, loaded.requestedAllowedTools], ["team", ["Bash", "Read"]]);
      assert.equal(
        await readSkillFile(client, entry, "skill://pdf/references/FORMS.md"),
        "# Forms\n",
      );
      await readSkillFile(client, entry, "skill://pdf/assets/logo.bin");
      // A binary file's bytes, exactly as the folder holds them (not decoded as text).
      assert.deepEqual(
        [...await readSkillFileBytes(client, entry, "skill://pdf/assets/logo.bin")],
        [0, 255, 1, 2],
      );
      const unlisted = await readSkillFile(client, entry, "skill://pdf/secrets.md").catch((e) => e);
      assert.deepEqual([unlisted.name, unlisted.reason], ["SkillVerificationError", "unlisted"]);
      assert.deepEqual(await getSkillEntry(client, entry.uri), entry);
      const unknown = await getSkillEntry(client, "skill://nope/SKILL.md").catch((e) => e);
      assert.deepEqual([unknown.name, unknown.code, unknown.rpcCode], ["RpcError", "rpc", -32602]);
      await client.close();
    });
  }
});

const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const BODY = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n\nBody.\n";

/** A 2026-07-28 server whose entry describes BODY but whose reads answer `served`. */
async function lyingServer(served: string, entry: Partial<SkillEntry> = {}) {
  const listed: SkillEntry = {
    uri: "skill://pdf/SKILL.md",
    frontmatter: { name: "pdf", description: "Fill PDF forms." },
    resources: [{ uri: "skill://pdf/SKILL.md", digest: sha(BODY), size: BODY.length }],
    ...entry,
  };
  const results: Record<string, unknown> = {
    "server/discover": {
      supportedVersions: ["2026-07-28"],
      capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } },
    },
    "skills/list": { skills: [listed] },
    "resources/read": { contents: [{ uri: listed.uri, text: served }] },
  };
  const reads: string[] = [];
  const http_ = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const rpc = JSON.parse(body);
    if (rpc.method === "resources/read") reads.push(rpc.params.uri);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result: results[rpc.method] ?? {} }));
  });
  const listening = await listenLocal(http_);
  return { url: `http://127.0.0.1:${listening.port}/mcp`, reads, close: listening.close };
}

describe("against a server that lies", () => {
  const cases: Array<[string, string, Partial<SkillEntry>, string]> = [
    ["a different body", BODY.replace("Body.", "Evil."), {}, "digest"],
    ["extra bytes", `${BODY}more\n`, {}, "size"],
    ["front matter that differs from the listing", BODY.replace("Fill PDF forms.", "Exfiltrate."), {
      resources: [{
        uri: "skill://pdf/SKILL.md",
        digest: sha(BODY.replace("Fill PDF forms.", "Exfiltrate.")),
        size: BODY.length - 4,
      }],
    }, "frontmatter"],
  ];
  for (const [what, served, entry, reason] of cases) {
    test(`${what}: SkillVerificationError (${reason}), content not used`, async () => {
      const liar = await lyingServer(served, entry);
      try {
        const client = await connect({ name: "liar", url: liar.url });
        const [listed] = (await listSkillEntries(client)).skills;
        assert.deepEqual(liar.reads, [], "nothing is read on connect or list");
        const error = await loadSkill(client, listed).catch((e) => e);
        assert.deepEqual([error.name, error.reason], ["SkillVerificationError", reason]);
        await client.close();
      } finally {
        await liar.close();
      }
    });
  }

  test("an entry without resources, or over the limits, is refused at listing", async () => {
    const liar = await lyingServer(BODY, { resources: undefined as unknown as [] });
    try {
      const client = await connect({ name: "liar", url: liar.url });
      const { skills, rejected } = await listSkillEntries(client);
      assert.deepEqual([skills.length, rejected[0].reason], [
        0,
        "resources is missing or malformed",
      ]);
      await client.close();
    } finally {
      await liar.close();
    }
  });

  test('a "dynamic" skill is declined unless asked for', async () => {
    const liar = await lyingServer(BODY, { resources: "dynamic" });
    try {
      const client = await connect({ name: "liar", url: liar.url });
      const [listed] = (await listSkillEntries(client)).skills;
      const error = await loadSkill(client, listed).catch((e) => e);
      assert.equal(error.reason, "dynamic");
      assert.match((await loadSkill(client, listed, { allowDynamic: true })).text, /Body/);
      await client.close();
    } finally {
      await liar.close();
    }
  });
});
