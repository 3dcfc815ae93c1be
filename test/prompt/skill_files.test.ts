// A skill's files reach the model through assemblePrompt: its block says where the skill lives
// and lists its files, a read_skill_file tool reads one (byte for byte as text, fenced when the
// skill is a community one), on demand activate_skill lists them too; files the dot-file rule
// keeps out, and paths the skill does not list, are never read. Real folders, default sources.
import assert from "node:assert/strict";
import { cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  assemblePrompt,
  type Catalog,
  createCatalog,
  createDefaultSources,
  createResolver,
  type Selection,
} from "../../lib/mod.ts";
import { REAL_SKILLS, SHAPES_LOADED, shapesWithSecrets, tempDir } from "../_agent_skills.ts";

let catalog: Catalog;
let user: string;

before(async () => {
  const home = await tempDir("skillmux-prompt-files-");
  user = await shapesWithSecrets();
  const community = join(home, "community");
  await mkdir(community, { recursive: true });
  await cp(join(REAL_SKILLS, "pyzotero"), join(community, "pyzotero"), { recursive: true });
  const sources = await createDefaultSources({
    userDir: user,
    communityDir: community,
    configDir: home,
    env: {},
    builtin: false,
  });
  catalog = await createCatalog({ resolver: createResolver({ sources }) });
});
after(() => catalog.dispose());

const selection = (skills: string[]): Selection => ({
  via: "llm",
  complexity: "simple",
  skills,
  tools: [],
  needsExternal: false,
  reasoning: "",
  diagnostics: [],
});

/** A model's call of `name` with `input`, in the Anthropic format. */
const call = (name: string, input: Record<string, unknown>) => ({
  type: "tool_use" as const,
  id: "t1",
  name,
  input,
});

const replyText = (result: { reply: unknown }) =>
  (result.reply as { content: Array<{ text: string }> }).content[0].text;

describe("a skill's files in the prompt", () => {
  test("the catalog holds the skills the resolver loads, under the same names", () => {
    const ids = catalog.entries.filter((e) => e.kind === "skill").map((e) => e.id).sort();
    assert.deepEqual(ids, [...SHAPES_LOADED, "pyzotero"].sort());
  });

  test("inline: the block says where the skill lives and lists its files; the tool reads one", async () => {
    const prompt = await assemblePrompt({
      request: "fill this PDF form",
      selection: selection(["pdf-form"]),
      catalog,
    });
    assert.match(
      prompt.system,
      new RegExp(`<skill name="pdf-form" source="user" location="${join(user, "pdf-form")}">`),
    );
    assert.match(prompt.system, /holds the files its instructions name.*read_skill_file/s);
    assert.match(prompt.system, /^- scripts\/fill\.py \(39 B\)$/m);
    assert.deepEqual(prompt.loaded.skills, [
      { id: "pdf-form", source: "user", inline: true, folder: join(user, "pdf-form"), files: 4 },
    ]);
    const tool = prompt.tools.anthropic.find((t) => t.name === "read_skill_file");
    assert.deepEqual((tool?.input_schema.properties as { skill: { enum: string[] } }).skill.enum, [
      "pdf-form",
    ]);
    const read = await prompt.executeToolCall(
      call("read_skill_file", { skill: "pdf-form", path: "scripts/fill.py" }),
    );
    assert.equal(read.isError, false);
    assert.equal(replyText(read), await readFile(join(user, "pdf-form/scripts/fill.py"), "utf8"));
    const missing = await prompt.executeToolCall(
      call("read_skill_file", { skill: "pdf-form", path: "../csv-tools/SKILL.md" }),
    );
    assert.equal(missing.isError, true);
    assert.match(
      replyText(missing),
      /has no file "\.\.\/csv-tools\/SKILL\.md"; its files: LICENSE\.txt/,
    );
    // A file of a skill this prompt did not select is not read, though the catalog has it.
    const other = await prompt.executeToolCall(
      call("read_skill_file", { skill: "dot-files", path: "assets/.env.example" }),
    );
    assert.equal(other.isError, true);
    assert.match(
      replyText(other),
      /^No skill "dot-files" to read files of; choose one of: pdf-form$/,
    );
  });

  test("the dot-file rule: secrets and .git/ are not listed and not read; binary files are named", async () => {
    const prompt = await assemblePrompt({
      request: "set up .env",
      selection: selection(["dot-files"]),
      catalog,
    });
    assert.doesNotMatch(prompt.system, /^- (?:\.env|id_rsa|assets\/server\.pem|\.git\/config) /m);
    assert.match(prompt.system, /^- assets\/\.env\.example \(19 B\)$/m);
    for (const path of [".env", "id_rsa", ".git/config", "assets/server.pem"]) {
      const read = await prompt.executeToolCall(
        call("read_skill_file", { skill: "dot-files", path }),
      );
      assert.equal(read.isError, true, path);
    }
    const png = await prompt.executeToolCall(
      call("read_skill_file", { skill: "dot-files", path: "assets/pixel.png" }),
    );
    assert.match(
      replyText(png),
      /assets\/pixel\.png is a binary file of 70 B; its content is not shown/,
    );
    const crlf = await prompt.executeToolCall(
      call("read_skill_file", { skill: "dot-files", path: "references/windows.txt" }),
    );
    assert.equal(replyText(crlf), "first line\r\nsecond line\r\n");
  });

  test("a community skill's list and files come fenced as untrusted data", async () => {
    const prompt = await assemblePrompt({
      request: "zotero",
      selection: selection(["pyzotero"]),
      catalog,
    });
    const fenced =
      /<untrusted-data source="community" kind="skill" name="pyzotero">[\s\S]*?<\/untrusted-data>/
        .exec(prompt.system)?.[0] ?? "";
    assert.match(fenced, /^- references\/authentication\.md \(\d/m, "the list is inside the fence");
    const read = await prompt.executeToolCall(
      call("read_skill_file", { skill: "pyzotero", path: "references/authentication.md" }),
    );
    assert.match(
      replyText(read),
      /^<untrusted-data source="community" kind="skill-file" name="pyzotero\/references\/authentication\.md">/,
    );
  });

  test("on demand: activate_skill's answer lists the files; read_skill_file reads them", async () => {
    const prompt = await assemblePrompt({
      request: "fill this PDF form",
      selection: selection(["pdf-form"]),
      catalog,
      skills: "tool",
    });
    assert.deepEqual(prompt.tools.anthropic.map((t) => t.name), [
      "activate_skill",
      "read_skill_file",
    ]);
    const activated = await prompt.executeToolCall(call("activate_skill", { name: "pdf-form" }));
    assert.match(replyText(activated), /^- references\/fields\.md \(44 B\)$/m);
    const read = await prompt.executeToolCall(
      call("read_skill_file", { skill: "pdf-form", path: "references/fields.md" }),
    );
    assert.match(replyText(read), /^# Fields/);
  });
});
