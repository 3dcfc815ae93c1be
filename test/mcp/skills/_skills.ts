// Test helpers of test/mcp/skills: a one-file skill "pdf" (its document, digest and entry), a
// connected client of the skills stub (../_skills_stub.ts) and its listing, and a minimal
// 2026-07-28 server that lists given entries and serves one document for every read.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import http from "node:http";
import { connect } from "../../../lib/mcp/client/client.ts";
import { listSkillEntries, loadSkill } from "../../../lib/mcp/skills/client.ts";
import type { SkillEntry } from "../../../lib/mcp/skills/types.ts";
import { type Answer, startSkillsStub } from "../_skills_stub.ts";
import { listenLocal } from "../_servers.ts";

/** The `sha256:<hex>` digest of `text`. */
export const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
/** The document of the skill "pdf". */
export const BODY = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n\nBody.\n";
/** The resource of its SKILL.md. */
export const SELF = { uri: "skill://pdf/SKILL.md", digest: sha(BODY), size: BODY.length };
/** Its entry, with `over` in place of any field. */
export const entry = (over: Record<string, unknown> = {}): SkillEntry => ({
  uri: "skill://pdf/SKILL.md",
  frontmatter: { name: "pdf", description: "Fill PDF forms." },
  resources: [SELF],
  ...over,
});

/**
 * A connected client of a stub server (test/mcp/_skills_stub.ts) answering by `answers`.
 */
export async function stub(
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
export async function listing(entries: unknown[]) {
  const s = await stub({ "skills/list": () => ({ skills: entries }) });
  try {
    return await listSkillEntries(s.client);
  } finally {
    await s.close();
  }
}

/** A 2026-07-28 server listing `entries` whose reads of any uri answer `served`. */
export async function stubServer(entries: unknown[], served = BODY) {
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

/** The error of loading the single entry a stub lists, serving `served`. */
export async function loadFailure(entry: SkillEntry, served: string) {
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
