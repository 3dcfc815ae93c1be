// Shared by the serve tests over HTTP and stdio (the skills server and the gateway): what a host
// without the skills extension and one with it get of a folder of published skills, through the
// official SDK client. Every file comes back byte-identical, by resources/read and by
// read_skill_file; skills/list lists each with its size and digest; get_skill names the files.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { walkSkillFolder } from "../../lib/resolve/fs_folder.ts";
import { parseSkill, skillKind } from "../../lib/skill/mod.ts";

const sha = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

type Contents = { uri: string; mimeType?: string; text?: string; blob?: string };

/** The bytes of one `resources/read` content. */
export function bytesOf(content: Contents): Uint8Array {
  if (typeof content.text === "string") return new TextEncoder().encode(content.text);
  return new Uint8Array(Buffer.from(content.blob ?? "", "base64"));
}

/** The skills/list entries a server answers (the SDK client, any result shape). */
export async function skillsList(client: Client): Promise<Array<Record<string, unknown>>> {
  const result = await client.request({ method: "skills/list", params: {} }, ResultSchema);
  return (result as { skills: Array<Record<string, unknown>> }).skills;
}

export interface ServedCheck {
  /** Skills checked. */
  skills: number;
  /** Files compared byte for byte, through each of the two routes. */
  files: number;
}

/**
 * Every file of every skill of `names` in `folder`, through `client`: listed in resources/list and
 * skills/list (size, digest), read back byte-identical by resources/read and read_skill_file, and
 * named by get_skill. `read_skill_file` answers text as text and anything else as a resource.
 */
export async function checkServedFiles(
  client: Client,
  folder: string,
  names: readonly string[],
): Promise<ServedCheck> {
  const { resources } = await client.listResources();
  const uris = new Set(resources.map((r) => r.uri));
  const entries = new Map(
    (await skillsList(client)).map((
      e,
    ) => [String(e.uri), e as { resources: Contents[] & { digest: string; size: number }[] }]),
  );
  let files = 0;
  for (const name of names) {
    const walk = await walkSkillFolder(join(folder, name), { maxFiles: 1000, maxBytes: 50e6 });
    const entry = entries.get(`skill://${name}/SKILL.md`);
    assert.ok(entry, `skills/list has ${name}`);
    assert.equal(entry.resources.length, walk.files.length + 1, name);
    const got = await client.callTool({ name: "get_skill", arguments: { name } });
    const text = (got.content as Array<{ text: string }>)[0].text;
    for (const file of walk.files) {
      const uri = `skill://${name}/${file.path.split("/").map(encodeURIComponent).join("/")}`;
      const disk = new Uint8Array(await readFile(file.full));
      assert.ok(uris.has(uri), `resources/list lists ${uri}`);
      const listed = entry.resources.find((r) => (r as { uri: string }).uri === uri) as unknown as {
        digest: string;
        size: number;
      };
      assert.deepEqual([listed?.size, listed?.digest], [disk.byteLength, sha(disk)], uri);
      const read = await client.readResource({ uri });
      assert.deepEqual(bytesOf(read.contents[0] as Contents), disk, `resources/read ${uri}`);
      const tool = await client.callTool({
        name: "read_skill_file",
        arguments: { name, path: file.path },
      });
      assert.notEqual(tool.isError, true, `read_skill_file ${uri}`);
      const block =
        (tool.content as Array<{ type: string; text?: string; resource?: Contents }>)[0];
      const bytes = block.type === "text"
        ? new TextEncoder().encode(block.text!)
        : bytesOf(block.resource!);
      assert.deepEqual(bytes, disk, `read_skill_file ${uri}`);
      assert.ok(text.includes(`- ${file.path} (`), `get_skill of ${name} names ${file.path}`);
      files++;
    }
    const doc = new Uint8Array(await readFile(join(folder, name, "SKILL.md")));
    const main = await client.readResource({ uri: `skill://${name}/SKILL.md` });
    const served = bytesOf(main.contents[0] as Contents);
    const digest = (entry.resources[0] as unknown as { digest: string }).digest;
    assert.equal(digest, sha(served));
    // An Agent Skills document that loads under its own name is served exactly as written.
    const { skill } = await parseSkill(new TextDecoder().decode(doc), { name });
    if (skillKind(skill) === "agent-skills" && skill.declaredName === undefined) {
      assert.deepEqual(served, doc, `${name}/SKILL.md as written`);
    } else {
      assert.match(new TextDecoder().decode(served), new RegExp(`^---\nname: ${name}\n`));
    }
  }
  return { skills: names.length, files };
}
