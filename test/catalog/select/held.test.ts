// Held entries are reported by the selection: their ids, why they wait (new, changed), whether
// they would fit the request, and a diagnostic (heldForSelection: fitting ones first, a stand-in
// named, ten named and the rest counted); the CLI's --json and text say the same.
// Over 300 lines: one behaviour, held entries as a selection and the CLI report them.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createMcpSkillSource,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  createStorageSource,
  selectForRequest,
} from "../../../lib/mod.ts";
import { findHeldTools, findTools, heldToolsNotice } from "../../../lib/catalog/mod.ts";
import { heldForSelection } from "../../../lib/catalog/select/_held.ts";
import type { Catalog, CatalogEntry, HeldEntry } from "../../../lib/catalog/model/types.ts";
import { startToolServer, type TestTool } from "../_servers.ts";
import { skillDoc } from "../_entries.ts";
import { cli, tempHome } from "../../cli/_helpers.ts";
import { startSdkServer } from "../../mcp/_servers.ts";

const TEAM_SAMTOOLS = [
  "---",
  "name: samtools",
  "description: The team's samtools notes for sorting and indexing BAM files. Use when sorting.",
  "tags: [bam, sort, index]",
  "---",
  "## Concepts",
  "",
  "- TEAM VERSION: always sort with -@ 8.",
  "",
].join("\n");

let server: Awaited<ReturnType<typeof startToolServer>>;
const echo: TestTool = {
  name: "echo",
  description: "Echoes back the text it is given",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};
const sum: TestTool = {
  name: "get-sum",
  description: "Returns the sum of two numbers",
  inputSchema: { type: "object", properties: {} },
};
before(async () => (server = await startToolServer([echo, sum])));
after(() => server.close());

async function setup(storage = createMemoryStorage()) {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  await registry.add({ name: "demo", url: server.url });
  const catalog = await createCatalog({
    resolver: createResolver({ sources: [createBuiltinSource()] }),
    registry,
    approvals: { storage, remote: "require" },
  });
  return { catalog, storage };
}

test("a held tool that would fit is named, with why it waits, in held, the diagnostics and the reason", async () => {
  const { catalog, storage } = await setup();
  await catalog.approve(["demo__echo"]);
  catalog.dispose();
  server.tools[0].description = "Echoes back the text it is given, loudly";
  const { catalog: changed } = await setup(storage);
  try {
    const selection = await selectForRequest(changed, "call the echo tool with hello");
    assert.deepEqual([selection.skills, selection.tools], [[], []]);
    assert.deepEqual(selection.held, [
      { id: "demo__echo", kind: "tool", source: "mcp:demo", approval: "changed", fits: true },
      { id: "demo__get-sum", kind: "tool", source: "mcp:demo", approval: "pending", fits: false },
    ]);
    assert.ok(
      selection.diagnostics.some((d) =>
        /^2 entries wait for approval and were not considered \(1 would fit this request\): demo__echo \(changed since approved, mcp:demo\), demo__get-sum \(new, mcp:demo\)/
          .test(d)
      ),
      selection.diagnostics.join("\n"),
    );
    assert.match(selection.reason ?? "", /Held for approval, and would fit: demo__echo\.$/);
  } finally {
    changed.dispose();
    server.tools[0].description = echo.description;
  }
});

test("nothing held: held is empty and no diagnostic", async () => {
  const { catalog } = await setup();
  await catalog.approve(["demo__echo", "demo__get-sum"]);
  const selection = await selectForRequest(catalog, "call the echo tool with hello");
  assert.deepEqual(selection.tools, ["demo__echo"]);
  assert.deepEqual(selection.held, []);
  assert.deepEqual(selection.diagnostics, []);
  catalog.dispose();
});

test("select --json and text agree on what is held", async () => {
  const home = await tempHome();
  try {
    assert.equal((await cli(["mcp", "add", server.url, "--name", "demo"], home.env)).code, 0);
    const json = await cli(["select", "call the echo tool with hello", "--json"], home.env);
    assert.equal(json.code, 0, json.stderr);
    const { selection } = JSON.parse(json.stdout);
    assert.deepEqual(selection.held.map((h: { id: string }) => h.id), [
      "demo__echo",
      "demo__get-sum",
    ]);
    const diagnostic = selection.diagnostics.find((d: string) => /wait for approval/.test(d));
    assert.ok(diagnostic, JSON.stringify(selection.diagnostics));
    const text = await cli(["select", "call the echo tool with hello"], home.env);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stderr.includes(`warning: ${diagnostic}`), text.stderr);
    assert.ok(text.stdout.includes(selection.reason), text.stdout);
  } finally {
    await home.close();
  }
});

test("a held remote skill does not hide the approved built-in: it answers, and the answer says which was held", async () => {
  const team = await startSdkServer({ skills: { samtools: TEAM_SAMTOOLS }, json: true });
  const storage = createMemoryStorage();
  const build = () =>
    createCatalog({
      resolver: createResolver({
        sources: [[createMcpSkillSource({ name: "team", url: team.url })], createBuiltinSource()],
      }),
      approvals: { storage, remote: "require" },
    });
  const catalog = await build();
  try {
    assert.equal(catalog.get("samtools")?.source, "builtin");
    const held = catalog.held.find((h) => h.entry.id === "samtools");
    assert.equal(held?.entry.source, "mcp:team");
    assert.equal(held?.standIn, "builtin");
    assert.ok(
      catalog.diagnostics.some((d) =>
        d.id === "samtools" &&
        /the approved version from builtin answers until then/.test(d.message)
      ),
    );
    const selection = await selectForRequest(catalog, "sort and index my BAM file");
    assert.equal(selection.skills[0], "samtools");
    assert.deepEqual(selection.held?.find((h) => h.id === "samtools"), {
      id: "samtools",
      kind: "skill",
      source: "mcp:team",
      approval: "pending",
      fits: true,
      standIn: "builtin",
    });
    assert.ok(selection.diagnostics.some((d) => /the builtin version answers meanwhile/.test(d)));
    const loaded = await catalog.loadSkill("samtools");
    assert.equal(loaded.source, "builtin");
    assert.doesNotMatch(loaded.skill.body, /TEAM VERSION/);

    await catalog.approve(["samtools"]);
    assert.equal(catalog.get("samtools")?.source, "mcp:team");
    assert.equal(catalog.held.length, 0);
    assert.match((await catalog.loadSkill("samtools")).skill.body, /TEAM VERSION/);
  } finally {
    catalog.dispose();
    await team.close();
  }
});

test("CLI: a registered skills server's held skill leaves the built-in answering, and --json says so", async () => {
  const team = await startSdkServer({ skills: { samtools: TEAM_SAMTOOLS }, json: true });
  const home = await tempHome();
  try {
    assert.equal((await cli(["mcp", "add", team.url, "--name", "team"], home.env)).code, 0);
    const json = await cli(["select", "sort and index my BAM file", "--json"], home.env);
    assert.equal(json.code, 0, json.stderr);
    const { selection, prompt } = JSON.parse(json.stdout);
    assert.equal(selection.skills[0], "samtools");
    assert.match(prompt.system, /<skill name="samtools" source="builtin">/);
    const held = selection.held.find((h: { id: string }) => h.id === "samtools");
    assert.deepEqual([held.source, held.standIn], ["mcp:team", "builtin"]);
    const text = await cli(["select", "sort and index my BAM file"], home.env);
    assert.match(text.stderr, /samtools \(new, mcp:team; the builtin version answers meanwhile\)/);
    const approve = await cli(["approve"], home.env);
    assert.match(approve.stdout, /samtools \(skill, mcp:team\) new; the builtin version answers/);
  } finally {
    await home.close();
    await team.close();
  }
});

test("findHeldTools: the held tools that fit a query, which findTools never returns", async () => {
  const { catalog } = await setup();
  try {
    assert.deepEqual(findTools(catalog, "echo back some text"), []);
    const [held, ...rest] = findHeldTools(catalog, "echo back some text");
    assert.deepEqual(rest, []);
    assert.deepEqual(
      [held.id, held.kind, held.source, held.approval],
      ["demo__echo", "tool", "mcp:demo", "pending"],
    );
    assert.match(held.description, /^Echoes back the text it is given/);
    assert.deepEqual(
      findHeldTools(catalog, "the weather in Paris"),
      [],
      "the evidence floor holds",
    );
    assert.deepEqual(findHeldTools(catalog, ""), []);
    await catalog.approve(["demo__echo"]);
    assert.deepEqual(findHeldTools(catalog, "echo back some text"), []);
    assert.equal(findTools(catalog, "echo back some text")[0]?.id, "demo__echo");
  } finally {
    catalog.dispose();
  }
});

test("heldToolsNotice: which wait and the command that approves them", () => {
  assert.equal(heldToolsNotice([]), "");
  assert.equal(
    heldToolsNotice(["a__x", "b__y"], { command: "npx skillmux approve" }),
    "2 tools wait for approval and cannot be called yet: a__x, b__y. Approve them with: npx skillmux approve a__x b__y",
  );
  const many = Array.from({ length: 12 }, (_, i) => `s__t${i}`);
  assert.match(
    heldToolsNotice(many),
    /: s__t0, .*s__t9 and 2 more\. Approve them with: skillmux approve s__t0 .* s__t9 …$/,
  );
});

describe("heldForSelection", () => {
  const entry = (id: string, description: string, approval: "pending" | "changed") =>
    ({
      id,
      kind: "tool",
      name: id,
      description,
      source: "mcp:demo",
      tags: [],
      keywords: [],
      needsConnection: true,
      remote: true,
      digest: "d",
      approval,
    }) as CatalogEntry;
  const catalogOf = (held: HeldEntry[]) => ({ held }) as unknown as Catalog;

  test("nothing held: no diagnostic", () => {
    assert.deepEqual(heldForSelection(catalogOf([]), "anything"), { held: [] });
  });

  test("one held entry: singular wording, why it waits, no fit count when it does not fit", () => {
    const { held, diagnostic } = heldForSelection(
      catalogOf([{ entry: entry("demo__echo", "Echoes text back", "changed") }]),
      "align reads to a genome",
    );
    assert.deepEqual(held, [{
      id: "demo__echo",
      kind: "tool",
      source: "mcp:demo",
      approval: "changed",
      fits: false,
    }]);
    assert.equal(
      diagnostic,
      "1 entry waits for approval and was not considered: demo__echo (changed since approved, " +
        "mcp:demo); approve with skillmux approve <id> or catalog.approve([id])",
    );
  });

  test("fitting ones first, a stand-in named, ten named and the rest counted", () => {
    const list: HeldEntry[] = [];
    for (let i = 0; i < 11; i++) list.push({ entry: entry(`t${i}`, "Does nothing", "pending") });
    list.push({
      entry: entry("s", "Sort and index BAM alignment files", "pending"),
      standIn: "builtin",
    });
    const { held, diagnostic } = heldForSelection(catalogOf(list), "sort and index BAM files");
    assert.equal(held[0].id, "s");
    assert.equal(held[0].fits, true);
    assert.equal(held[0].standIn, "builtin");
    assert.equal(held.length, 12);
    assert.equal(
      diagnostic,
      "12 entries wait for approval and were not considered (1 would fit this request): " +
        "s (new, mcp:demo; the builtin version answers meanwhile), " +
        Array.from({ length: 9 }, (_, i) => `t${i} (new, mcp:demo)`).join(", ") +
        " and 2 more; approve with skillmux approve <id> or catalog.approve([id])",
    );
  });
});

test("ten held entries are all named, one with exactly the floor's evidence as fitting", async () => {
  const initial: Record<string, string> = {
    // Its one tag is the request's word: evidence 2, the floor.
    "bam-tidy.md": skillDoc("bam-tidy", "Tidies headers of alignment files.", ["samtools"]),
  };
  for (let i = 0; i < 9; i++) initial[`note-${i}.md`] = skillDoc(`note-${i}`, `Keeps note ${i}.`);
  const catalog = await createCatalog({
    resolver: createResolver({
      sources: [createStorageSource({ label: "user", storage: createMemoryStorage({ initial }) })],
    }),
    approvals: { storage: createMemoryStorage(), local: "require" },
  });
  try {
    const selection = await selectForRequest(catalog, "samtools");
    const held = selection.held ?? [];
    assert.equal(held.length, 10);
    assert.deepEqual(held[0], {
      id: "bam-tidy",
      kind: "skill",
      source: "user",
      approval: "pending",
      fits: true,
    });
    assert.ok(held.slice(1).every((h) => !h.fits));
    const names = ["bam-tidy", ...Array.from({ length: 9 }, (_, i) => `note-${i}`)];
    assert.ok(
      selection.diagnostics.includes(
        "10 entries wait for approval and were not considered (1 would fit this request): " +
          names.map((n) => `${n} (new, user)`).join(", ") +
          "; approve with skillmux approve <id> or catalog.approve([id])",
      ),
      selection.diagnostics.join("\n"),
    );
  } finally {
    catalog.dispose();
  }
});
