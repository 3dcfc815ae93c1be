// serveSkills over a folder of published skills, through the official SDK client over
// Streamable HTTP: every file of every skill is served byte-identical (resources/read of
// skill://<name>/<path>, read_skill_file), listed with its size and digest (resources/list,
// skills/list), named by get_skill; the dot-file rule holds; a refused skill is named with why.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serveGateway, serveSkills } from "../../lib/server/mod.ts";
import { createDefaultSources, createResolver } from "../../lib/mod.ts";
import { registered } from "./_gateway.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import {
  DOT_FILES_KEPT,
  REAL_SKILLS,
  SHAPES_LOADED,
  SHAPES_REFUSED,
  shapesWithSecrets,
  skillFolders,
  tempDir,
} from "../_agent_skills.ts";
import { checkServedFiles, skillsList } from "./_served_files.ts";

const servers: SkillsServer[] = [];
const clients: Client[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await Promise.all(servers.map((s) => s.close()));
});

async function open(folder: string, sessions = false): Promise<Client> {
  const server = await serveSkills({ folder, sessions });
  servers.push(server);
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  clients.push(client);
  return client;
}

describe("serving the files of folder skills (HTTP, the SDK client)", () => {
  test("the 45 published skills: every file, byte-identical, by both routes", async () => {
    const client = await open(REAL_SKILLS);
    const names = await skillFolders(REAL_SKILLS);
    const checked = await checkServedFiles(client, REAL_SKILLS, names);
    assert.deepEqual(checked, { skills: 45, files: 159 });
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), [
      "skill://{name}",
      "skill://{name}/{+path}",
    ]);
  });

  test("shapes: the dot-file rule, the names they load under, refused skills say why", async () => {
    const folder = await shapesWithSecrets();
    const client = await open(folder, true);
    const listed = (await skillsList(client)).map((e) => String(e.uri)).sort();
    assert.deepEqual(listed, SHAPES_LOADED.map((n) => `skill://${n}/SKILL.md`));
    await checkServedFiles(client, folder, SHAPES_LOADED);
    const dot = (await skillsList(client)).find((e) => e.uri === "skill://dot-files/SKILL.md")!;
    assert.deepEqual(
      (dot.resources as Array<{ uri: string }>).slice(1).map((r) => r.uri),
      DOT_FILES_KEPT.map((p) => `skill://dot-files/${p}`),
    );
    for (const secret of [".env", "id_rsa", "assets/server.pem", ".git/config"]) {
      await assert.rejects(
        client.readResource({ uri: `skill://dot-files/${secret}` }),
        /not found/,
      );
      const tool = await client.callTool({
        name: "read_skill_file",
        arguments: { name: "dot-files", path: secret },
      });
      assert.equal(tool.isError, true, secret);
    }
    // A display name loads, and is served, under its folder's name.
    const ahrefs = await client.readResource({ uri: "skill://ahrefs-automation" });
    assert.match((ahrefs.contents[0] as { text: string }).text, /^---\nname: ahrefs-automation\n/);
    for (const [name, reason] of Object.entries(SHAPES_REFUSED)) {
      const got = await client.callTool({ name: "get_skill", arguments: { name } });
      assert.equal(got.isError, true);
      const text = (got.content as Array<{ text: string }>)[0].text;
      if (name === "zoho_mail-automation") {
        assert.match(text, /is not a skill name/, "an invalid name cannot be looked up");
      } else {
        assert.match(text, new RegExp(`^Skill "${name}" is in the folder but is not served: `));
        assert.match(text, reason);
      }
    }
    const unknown = await client.callTool({ name: "get_skill", arguments: { name: "nope" } });
    assert.match((unknown.content as Array<{ text: string }>)[0].text, /^No skill named "nope"/);
  });

  test("the gateway over HTTP serves the user folder's skills and files the same way", async () => {
    const { registry, approvals } = await registered([]);
    const config = await tempDir();
    const sources = await createDefaultSources({
      userDir: REAL_SKILLS,
      communityDir: config,
      configDir: config,
      env: {},
      builtin: false,
    });
    const gateway = await serveGateway({
      registry,
      approvals,
      resolver: createResolver({ sources }),
    });
    servers.push(gateway);
    const client = new Client({ name: "sdk-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    clients.push(client);
    const names = await skillFolders(REAL_SKILLS);
    assert.deepEqual(await checkServedFiles(client, REAL_SKILLS, names.slice(0, 8)), {
      skills: 8,
      files: 20,
    });
  });

  test("get_skill names the files with their URIs; read_skill_file of a missing path lists them", async () => {
    const client = await open(REAL_SKILLS);
    const got = await client.callTool({ name: "get_skill", arguments: { name: "pyzotero" } });
    const structured = got.structuredContent as { files: Array<{ path: string; uri: string }> };
    assert.equal(structured.files.length, 13);
    assert.ok(structured.files.every((f) => f.uri === `skill://pyzotero/${f.path}`));
    const missing = await client.callTool({
      name: "read_skill_file",
      arguments: { name: "pyzotero", path: "references/nope.md" },
    });
    assert.equal(missing.isError, true);
    assert.match(
      (missing.content as Array<{ text: string }>)[0].text,
      /has no file "references\/nope\.md"; its files: /,
    );
  });
});
