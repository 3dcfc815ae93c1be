// serveSkills with the official SDK Client over Streamable HTTP, stateless and with sessions.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { makeTempDir, removeTempDirs } from "../storage/_tmp.ts";
import { skillDoc } from "./_helpers.ts";
import { within } from "../_wait.ts";

const servers: SkillsServer[] = [];
const clients: Client[] = [];

after(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await Promise.all(servers.map((server) => server.close()));
  await removeTempDirs();
});

async function open(url: string, onStream?: () => void): Promise<Client> {
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  // Tell when the standalone GET stream is open, so a test can wait on that, not on a sleep.
  const fetchSeeing: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const type = response.headers.get("content-type") ?? "";
    if (init?.method === "GET" && response.ok && type.includes("text/event-stream")) onStream?.();
    return response;
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchSeeing }));
  clients.push(client);
  return client;
}

for (const sessions of [false, true]) {
  describe(`the SDK Client (${sessions ? "sessions" : "stateless"})`, () => {
    test("lists, reads, searches and gets skills", async () => {
      const server = await serveSkills({ sessions });
      servers.push(server);
      const client = await open(server.url);
      const { resources } = await client.listResources();
      assert.ok(
        resources.some((r) => r.uri === "skill://samtools" && r.mimeType === "text/markdown"),
      );
      const read = await client.readResource({ uri: "skill://bcftools" });
      assert.match((read.contents[0] as { text: string }).text, /name: bcftools/);
      const search = await client.callTool({
        name: "search_skills",
        arguments: { query: "sort a bam by coordinate" },
      });
      const results = (search.structuredContent as { results: { name: string }[] }).results;
      assert.equal(results[0].name, "samtools");
      const miss = await client.callTool({ name: "get_skill", arguments: { name: "nope" } });
      assert.equal(miss.isError, true);
      assert.deepEqual(await client.ping(), {}, "ping answers an empty result");
    });
  });
}

test("the SDK Client hears list_changed on its GET stream (sessions)", async () => {
  const folder = join(await makeTempDir("skillmux-sdk-"), "skills");
  await mkdir(folder);
  await writeFile(join(folder, "alpha.md"), skillDoc("alpha", "Alpha. Use when testing."));
  const server = await serveSkills({ folder, sessions: true });
  servers.push(server);
  let streamOpen!: () => void;
  const opened = new Promise<void>((resolve) => (streamOpen = resolve));
  const client = await open(server.url, () => streamOpen());
  const heard = new Promise<string>((resolve) => {
    client.setNotificationHandler(
      ResourceListChangedNotificationSchema,
      (message) => resolve(message.method),
    );
  });
  assert.equal((await client.listResources()).resources.length, 1);
  await within(opened, 10_000, "the SDK client's GET stream");
  await writeFile(join(folder, "beta.md"), skillDoc("beta", "Beta. Use when testing."));
  assert.equal(
    await within(heard, 10_000, "list_changed on the GET stream"),
    "notifications/resources/list_changed",
  );
});
