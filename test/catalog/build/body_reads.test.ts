// Listing without bodies (issue 21): against a real skills server (serveSkills, skills extension),
// resolver.list() and createCatalog() read no SKILL.md; select + assemble reads exactly the
// selected skills; the listing is the same, byte for byte, as one built by reading every body.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createCatalog } from "../../../lib/catalog/build/catalog.ts";
import { selectForRequest } from "../../../lib/catalog/select/select.ts";
import { assemblePrompt } from "../../../lib/prompt/assemble.ts";
import { createBuiltinSource } from "../../../lib/resolve/builtin_source.ts";
import { createMcpSkillSource, type McpSkillSource } from "../../../lib/resolve/mcp_source.ts";
import { createResolver } from "../../../lib/resolve/resolver.ts";
import type { SkillSource } from "../../../lib/resolve/types.ts";
import { serveSkills } from "../../../lib/server/mod.ts";
import type { SkillsServer } from "../../../lib/server/types.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";

const SKILLS: Record<string, [string, string, string]> = {
  "kraken-notes": ["Team notes on classifying metagenome reads", "taxonomic labels", "Classify"],
  "quast-notes": ["Team notes on assembly quality reports", "N50 of contigs", "Report"],
  "fastp-notes": ["Team notes on trimming adapters", "poly-G tails", "Trim"],
  "mosdepth-notes": ["Team notes on coverage depth", "per-base depth windows", "Compute"],
};

const doc = (name: string, [about, concept, verb]: [string, string, string]) =>
  `---\nname: ${name}\ndescription: ${about}. Use when the team asks.\ntags: [team, ${name}]\n---\n\n` +
  `## Concepts\n\n- ${name} explains ${concept}.\n\n## Examples\n\n### ${verb} with the ${name} recipe\n` +
  `**Args:** \`--in x\`\n**Explanation:** Runs it.\n`;

let dir: string;
let server: SkillsServer;
const log: string[] = [];
const sources: McpSkillSource[] = [];
const reads = () => log.filter((line) => line.split(" ")[2] === "resources/read").length;

function team(name: string): McpSkillSource {
  const source = createMcpSkillSource({ name, url: server.url });
  sources.push(source);
  return source;
}

/** The same server, but without its listing's summaries: every body is read to list. */
function reading(source: SkillSource): SkillSource {
  return {
    label: source.label,
    get: (name, options) => source.get(name, options),
    list: (options) => source.list(options),
    peek: (name, options) => source.peek!(name, options),
  };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillmux-body-reads-"));
  for (const [name, parts] of Object.entries(SKILLS)) {
    await writeFile(join(dir, `${name}.md`), doc(name, parts));
  }
  server = await serveSkills({ folder: dir, log: (line) => log.push(line) });
});
after(async () => {
  await Promise.all(sources.map((s) => s.dispose()));
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("listing without bodies, against a skills-extension server", () => {
  test("resolver.list() reads no body and still gives digest, tags and keywords", async () => {
    const resolver = createResolver({
      sources: [[team("t1")], createBuiltinSource()],
      timeoutMs: 30_000,
    });
    const start = reads();
    const listing = await resolver.list();
    assert.equal(reads() - start, 0, "no resources/read to list");
    const row = listing.skills.find((s) => s.name === "quast-notes");
    assert.ok(row, JSON.stringify(listing.diagnostics));
    assert.equal(row.source, "mcp:t1");
    assert.equal(row.skill, undefined, "the body was not read");
    assert.match(row.digest, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(row.tags, ["team", "quast-notes"]);
    assert.ok(row.keywords.some((k) => k.includes("N50 of contigs")), "concepts from the listing");
    assert.deepEqual(row.tasks, ["Report with the quast-notes recipe"]);
    // The digest is the one a read verifies: resolving gives the same skill.
    assert.equal((await resolver.resolve("quast-notes")).skill.digest, row.digest);
    assert.equal(reads() - start, 1);
  });

  test("createCatalog reads 0 bodies; select + assemble reads exactly the selected", async () => {
    const resolver = createResolver({
      sources: [[team("t2")], createBuiltinSource()],
      timeoutMs: 30_000,
    });
    const start = reads();
    const catalog = await createCatalog({
      resolver,
      approvals: { storage: createMemoryStorage(), remote: "first-sight" },
    });
    assert.equal(reads() - start, 0, "building the catalog reads no SKILL.md");
    assert.equal(catalog.get("mosdepth-notes")?.source, "mcp:t2");
    const request = "compute per-base depth windows with the mosdepth-notes recipe";
    const selection = await selectForRequest(catalog, request);
    assert.equal(reads() - start, 0, "selecting reads no SKILL.md");
    const remote = selection.skills.filter((id) => catalog.get(id)?.source === "mcp:t2");
    assert.deepEqual(remote, ["mosdepth-notes"]);
    const prompt = await assemblePrompt({ request, selection, catalog });
    await prompt.session.close();
    assert.equal(reads() - start, remote.length, "one read per selected remote skill");
    assert.match(prompt.system, /mosdepth-notes explains per-base depth windows/);
    catalog.dispose();
  });

  test("the listing is byte-identical to one built by reading every body", async () => {
    const approvals = () => ({ storage: createMemoryStorage(), remote: "first-sight" as const });
    const light = await createCatalog({
      resolver: createResolver({
        sources: [[team("same")], createBuiltinSource()],
        timeoutMs: 30_000,
      }),
      approvals: approvals(),
    });
    const start = reads();
    const heavy = await createCatalog({
      resolver: createResolver({
        sources: [[reading(team("same"))], createBuiltinSource()],
        timeoutMs: 30_000,
      }),
      approvals: approvals(),
    });
    assert.equal(reads() - start, Object.keys(SKILLS).length, "the reading source reads them all");
    assert.deepEqual(light.entries, heavy.entries);
    assert.equal((await light.render()).text, (await heavy.render()).text);
    assert.equal(light.version, heavy.version);
    const query = "classify metagenome reads into taxonomic labels";
    assert.deepEqual(light.rank(query), heavy.rank(query));
    light.dispose();
    heavy.dispose();
  });
});
