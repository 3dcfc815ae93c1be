// `skillmux catalog`, `select` and `approve` in-process, with a real MCP server and a fake LLM API.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { openAiAnswer, startFakeLlm, startToolServer } from "../catalog/_servers.ts";
import { cli, tempHome } from "./_helpers.ts";
import { builtinSkillNames } from "../../lib/resolve/builtin_source.ts";

let home: Awaited<ReturnType<typeof tempHome>>;
let server: Awaited<ReturnType<typeof startToolServer>>;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;

before(async () => {
  home = await tempHome();
  server = await startToolServer([{
    name: "lookup",
    description: "Look a gene up by symbol",
    inputSchema: { type: "object", properties: { symbol: { type: "string" } } },
  }]);
  llm = await startFakeLlm(() =>
    openAiAnswer('{"skills":["bwa"],"tools":["genes__lookup"],"reasoning":"map, then look up"}')
  );
});
after(async () => {
  await llm.close();
  await server.close();
  await home.close();
});

test("catalog: the compact listing and its token count, within a budget", async () => {
  const plain = await cli(["catalog"], home.env);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /^Skills \(know-how documents; pick by id\):\n[a-z0-9-]+: /);
  const shown = (await builtinSkillNames()).length; // the tool server's tool awaits approval
  assert.match(plain.stdout, new RegExp(`\\d+ tokens \\(o200k\\), ${shown} entries shown`));
  const json = JSON.parse((await cli(["catalog", "--json", "--budget", "300"], home.env)).stdout);
  assert.ok(json.tokens <= 300 && json.omitted > 0);
  assert.equal((await cli(["catalog", "--budget", "x"], home.env)).code, 2);
});

test("select: keyword selection with --json, ranks best first, and the prompt", async () => {
  const { code, stdout, stderr } = await cli(
    ["select", "sort and index my BAM file", "--json"],
    home.env,
  );
  assert.equal(code, 0, stderr);
  const { selection, prompt } = JSON.parse(stdout);
  assert.equal(selection.via, "keyword");
  assert.equal(selection.skills[0], "samtools");
  assert.match(prompt.system, /<skill name="samtools" source="builtin">/);
  // The keyword index is kept for the next command, in the config folder's cache/.
  const cache = join(home.env.XDG_CONFIG_HOME, "skillmux", "cache");
  const saved = JSON.parse(await readFile(join(cache, "keyword-index.json"), "utf8"));
  assert.ok(saved.length >= 1, "the built-ins' segment at least");
});

test("approve: a registered server's tool waits, is approved, then selected by the LLM", async () => {
  assert.equal((await cli(["mcp", "add", server.url, "--name", "genes"], home.env)).code, 0);
  const catalog = await cli(["catalog"], home.env);
  assert.match(catalog.stderr, /1 entry waits for approval \(.* approve\)/);
  const waiting = await cli(["approve"], home.env);
  assert.equal(waiting.code, 0);
  assert.doesNotMatch(waiting.stderr, /waits for approval/, "approve does not point to itself");
  assert.match(waiting.stdout, /^Approve with: .* approve <id…> \(or --all\)$/m);
  assert.match(
    waiting.stdout,
    /genes__lookup \(tool, mcp:genes\) new\n {2}Look a gene up by symbol/,
  );
  const before = JSON.parse((await cli(["catalog", "--json"], home.env)).stdout);
  assert.ok(!before.ids.includes("genes__lookup"));
  assert.equal((await cli(["approve", "nope"], home.env)).code, 1);
  const approved = await cli(["approve", "genes__lookup"], home.env);
  assert.match(approved.stdout, /Approved genes__lookup/);

  const env = { ...home.env, OPENAI_API_KEY: "sk-cli" };
  const args = ["select", "map reads and look up TP53", "--json", "--llm", "openai"];
  const selected = await cli([...args, "--model", "m", "--base-url", `${llm.url}/v1`], env);
  assert.equal(selected.code, 0, selected.stderr);
  const { selection, prompt } = JSON.parse(selected.stdout);
  assert.equal(selection.via, "llm");
  assert.deepEqual([selection.skills, selection.tools], [["bwa"], ["genes__lookup"]]);
  assert.equal(prompt.tools.openai[0].function.name, "genes__lookup");
  assert.equal(llm.requests.at(-1)?.headers.authorization, "Bearer sk-cli");
  assert.equal((await cli(["select", "x", "--llm", "openai"], env)).code, 2, "--model is required");
});
