// `skillmux catalog` and `select` as child processes against a real skills server (serveSkills,
// the skills extension): listing reads no SKILL.md; select + assemble reads one per selected
// remote skill (issue 21).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { cli, sub, tempHome } from "./_helpers.ts";

let home: Awaited<ReturnType<typeof tempHome>>;
let server: SkillsServer;
const log: string[] = [];
const reads = () => log.filter((line) => line.split(" ")[2] === "resources/read").length;

before(async () => {
  home = await tempHome();
  server = await serveSkills({ log: (line) => log.push(line) });
  const added = await cli(["mcp", "add", server.url, "--name", "team"], home.env);
  assert.equal(added.code, 0, added.stderr);
});
after(async () => {
  await server.close();
  await home.close();
});

test("skillmux catalog reads no SKILL.md; select reads only the selected", async () => {
  let start = reads();
  const listed = await sub(["catalog", "--json"], home.env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(reads() - start, 0, "catalog reads no body");
  assert.equal((await sub(["approve", "--all"], home.env)).code, 0);
  const json = JSON.parse((await sub(["catalog", "--json"], home.env)).stdout);
  assert.ok(json.ids.includes("samtools"), "the server's skills are listed");
  start = reads();
  const selected = await sub(["select", "sort and index my BAM file", "--json"], home.env);
  assert.equal(selected.code, 0, selected.stderr);
  const { selection, prompt } = JSON.parse(selected.stdout);
  assert.ok(selection.skills.length > 0);
  assert.match(prompt.system, /source="mcp:team"/);
  assert.equal(reads() - start, selection.skills.length, "one read per selected skill");
});
