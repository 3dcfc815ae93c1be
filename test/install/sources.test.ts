// installFromSource: a git repository made in the test (pinned to the commit, a ref that moves,
// a hostile repository refused whole), a folder, and a domain's Agent Skills discovery index on
// a loopback server (a SKILL.md and .tar.gz/.zip archives, every artifact checked against the
// index's digest; archives with ../ paths, symlinks or past the caps refused); updateSkills
// reads each source again and keeps local edits unless forced.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import {
  installFromSource,
  parseSkillSource,
  readLockFile,
  updateSkills,
} from "../../lib/install/mod.ts";
import { REAL_SKILLS, SHAPES, tempDir } from "../_agent_skills.ts";
import { startRegistry, type TestRegistry } from "./_registry.ts";

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  run("git", ["-c", "user.email=t@example.org", "-c", "user.name=t", ...args], { cwd });
const hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A repository with skills/pdf-form and skills/pyzotero, tagged v1, then one more commit. */
async function repository(): Promise<{ dir: string; v1: string; head: string }> {
  const dir = join(await tempDir("skillmux-repo-"), "team-skills");
  await mkdir(join(dir, "skills"), { recursive: true });
  await cp(join(SHAPES, "pdf-form"), join(dir, "skills/pdf-form"), { recursive: true });
  await cp(join(REAL_SKILLS, "pyzotero"), join(dir, "skills/pyzotero"), { recursive: true });
  await writeFile(join(dir, "README.md"), "# Team skills\n");
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "one");
  await git(dir, "tag", "v1");
  const v1 = (await git(dir, "rev-parse", "HEAD")).stdout.trim();
  await writeFile(join(dir, "skills/pdf-form/scripts/fill.py"), "print('v2')\n");
  await git(dir, "commit", "-qam", "two");
  return { dir, v1, head: (await git(dir, "rev-parse", "HEAD")).stdout.trim() };
}

describe("parseSkillSource", () => {
  test("git URLs and refs, sites and indexes, folders", () => {
    assert.deepEqual(parseSkillSource("https://github.com/acme/skills#v1"), {
      type: "git",
      url: "https://github.com/acme/skills",
      ref: "v1",
    });
    assert.deepEqual(parseSkillSource("git@github.com:acme/skills.git"), {
      type: "git",
      url: "git@github.com:acme/skills.git",
    });
    assert.deepEqual(parseSkillSource("https://example.org"), {
      type: "well-known",
      url: "https://example.org/",
    });
    assert.equal(
      parseSkillSource("https://example.org/.well-known/agent-skills/index.json").type,
      "well-known",
    );
    assert.deepEqual(parseSkillSource("./skills"), { type: "path", path: "./skills" });
    assert.deepEqual(parseSkillSource("../repo#main"), {
      type: "git",
      url: "../repo",
      ref: "main",
    });
  });
});

describe("installFromSource: git", () => {
  test("pinned to the commit of a tag, every file byte for byte, the lock says where from", async () => {
    const repo = await repository();
    const into = await tempDir();
    const result = await installFromSource(`file://${repo.dir}#v1`, { communityDir: into });
    assert.equal(result.source.commit, repo.v1);
    assert.deepEqual(result.skills.map((s) => [s.name, s.action]), [
      ["pdf-form", "install"],
      ["pyzotero", "install"],
    ]);
    assert.deepEqual((await readdir(into)).sort(), ["pdf-form", "pyzotero", "skillmux-lock.json"]);
    const lock = await readLockFile(into);
    const pdf = lock.find((e) => e.name === "pdf-form")!;
    assert.deepEqual(
      [pdf.sourceType, pdf.source, pdf.ref, pdf.commit, pdf.skillPath],
      ["git", `file://${repo.dir}`, "v1", repo.v1, "skills/pdf-form"],
    );
    const fill = await readFile(join(into, "pdf-form/scripts/fill.py"));
    assert.equal(fill.toString(), await readFile(join(SHAPES, "pdf-form/scripts/fill.py"), "utf8"));
    assert.equal(pdf.files?.["scripts/fill.py"], hex(fill));
    const zotero = await readdir(join(REAL_SKILLS, "pyzotero"), { recursive: true });
    assert.deepEqual(
      (await readdir(join(into, "pyzotero"), { recursive: true })).sort(),
      zotero.sort(),
    );
  });

  test("--skill takes one; a local repository path with #ref; update follows the ref and keeps edits", async () => {
    const repo = await repository();
    const into = await tempDir();
    const one = await installFromSource(`${repo.dir}#main`, {
      communityDir: into,
      skills: ["pdf-form"],
    });
    assert.deepEqual(one.skills.map((s) => s.name), ["pdf-form"]);
    assert.equal(one.source.commit, repo.head);
    assert.equal(await readFile(join(into, "pdf-form/scripts/fill.py"), "utf8"), "print('v2')\n");
    const same = await updateSkills([], { communityDir: into });
    assert.deepEqual(same.changes.map((c) => c.action), ["unchanged"]);
    await writeFile(join(repo.dir, "skills/pdf-form/scripts/fill.py"), "print('v3')\n");
    await git(repo.dir, "commit", "-qam", "three");
    const moved = await updateSkills([], { communityDir: into });
    assert.deepEqual(moved.changes.map((c) => [c.action, c.from, c.to]), [
      [
        "update",
        repo.head.slice(0, 7),
        (await git(repo.dir, "rev-parse", "HEAD")).stdout.trim().slice(0, 7),
      ],
    ]);
    assert.equal(await readFile(join(into, "pdf-form/scripts/fill.py"), "utf8"), "print('v3')\n");
    // A local edit is kept unless forced.
    await writeFile(join(into, "pdf-form/references/fields.md"), "# mine\n");
    await writeFile(join(repo.dir, "skills/pdf-form/scripts/fill.py"), "print('v4')\n");
    await git(repo.dir, "commit", "-qam", "four");
    const kept = await updateSkills([], { communityDir: into });
    assert.match(
      kept.refused?.[0]?.reason ?? "",
      /was changed since it was installed; use --force/,
    );
    assert.equal(await readFile(join(into, "pdf-form/references/fields.md"), "utf8"), "# mine\n");
    const forced = await updateSkills([], { communityDir: into, force: true });
    assert.deepEqual(forced.changes.map((c) => c.action), ["update"]);
    assert.equal(await readFile(join(into, "pdf-form/scripts/fill.py"), "utf8"), "print('v4')\n");
  });

  test("a hostile repository (a symlink out) is refused whole; unsafe URLs and refs never reach git", async () => {
    const dir = join(await tempDir("skillmux-repo-"), "hostile");
    await mkdir(join(dir, "evil"), { recursive: true });
    await writeFile(
      join(dir, "evil/SKILL.md"),
      "---\nname: evil\ndescription: Evil. Use never.\n---\n",
    );
    await symlink("/etc/passwd", join(dir, "evil/passwd"));
    await git(dir, "init", "-q", "-b", "main");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-qm", "evil");
    const into = await tempDir();
    const result = await installFromSource(`file://${dir}`, { communityDir: into });
    assert.equal(result.skills[0].action, "refused");
    assert.match(result.skills[0].reason!, /passwd is a symbolic link/);
    assert.deepEqual(await readdir(into), []);
    await assert.rejects(
      installFromSource("ext::sh -c touch%20/tmp/x#main", { communityDir: into }),
      /Refusing the git URL/,
    );
    await assert.rejects(
      installFromSource(`file://${dir}#--upload-pack=x`, { communityDir: into }),
      /Invalid git ref/,
    );
    await assert.rejects(
      installFromSource(`file://${dir}#nope`, { communityDir: into }),
      /has no ref "nope"/,
    );
    assert.deepEqual(await readdir(into), []);
  });
});

/** A ustar archive of `entries` (path, content or a symlink target), gzipped. */
async function tarGz(
  entries: Array<{ path: string; text?: string; link?: string }>,
): Promise<Uint8Array> {
  const blocks: Uint8Array[] = [];
  const put = (header: Uint8Array, at: number, value: string) =>
    header.set(new TextEncoder().encode(value), at);
  for (const entry of entries) {
    const body = new TextEncoder().encode(entry.text ?? "");
    const header = new Uint8Array(512);
    put(header, 0, entry.path);
    put(header, 100, "0000644\0");
    put(header, 108, "0000000\0");
    put(header, 116, "0000000\0");
    put(header, 124, `${body.length.toString(8).padStart(11, "0")}\0`);
    put(header, 136, "00000000000\0");
    put(header, 156, entry.link ? "2" : "0");
    if (entry.link) put(header, 157, entry.link);
    put(header, 257, "ustar\x0000");
    put(header, 148, "        ");
    const sum = header.reduce((a, b) => a + b, 0);
    put(header, 148, `${sum.toString(8).padStart(6, "0")}\0 `);
    blocks.push(header, body, new Uint8Array((512 - (body.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  const tar = new Uint8Array(await new Blob(blocks as BlobPart[]).arrayBuffer());
  const gz = new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(gz).arrayBuffer());
}

describe("installFromSource: a discovery index (/.well-known/agent-skills/)", () => {
  let site: TestRegistry;
  before(async () => (site = await startRegistry()));
  after(() => site.close());
  const serve = (path: string, bytes: Uint8Array, type: string) =>
    site.files.set(path, (_req, res) => {
      res.writeHead(200, { "content-type": type, "content-length": bytes.byteLength }).end(bytes);
    });
  const index = (
    skills: unknown[],
    schema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
  ) =>
    site.files.set(
      ".well-known/agent-skills/index.json",
      JSON.stringify({ $schema: schema, skills }),
    );

  test("a SKILL.md, a .tar.gz and a .zip, each checked against its digest; a bad one is refused", async () => {
    const doc = await readFile(join(SHAPES, "csv-tools/SKILL.md"));
    serve(".well-known/agent-skills/csv-tools/SKILL.md", doc, "text/markdown");
    const work = await tempDir();
    await cp(join(SHAPES, "pdf-form"), join(work, "pdf-form"), { recursive: true });
    await run("tar", ["-czf", join(work, "pdf.tar.gz"), "-C", join(work, "pdf-form"), "."]);
    await cp(join(REAL_SKILLS, "pyzotero"), join(work, "pyzotero"), { recursive: true });
    await run("zip", ["-qr", join(work, "zotero.zip"), "."], { cwd: join(work, "pyzotero") });
    const tgz = new Uint8Array(await readFile(join(work, "pdf.tar.gz")));
    const zip = new Uint8Array(await readFile(join(work, "zotero.zip")));
    serve(".well-known/agent-skills/pdf-form.tar.gz", tgz, "application/gzip");
    serve("cdn/zotero.zip", zip, "application/zip");
    index([
      {
        name: "csv-tools",
        type: "skill-md",
        description: "CSV.",
        url: "csv-tools/SKILL.md",
        digest: `sha256:${hex(doc)}`,
      },
      {
        name: "pdf-form",
        type: "archive",
        description: "PDF.",
        url: "/.well-known/agent-skills/pdf-form.tar.gz",
        digest: `sha256:${hex(tgz)}`,
        version: "1.2.0",
      },
      {
        name: "pyzotero",
        type: "archive",
        description: "Zotero.",
        url: `${site.url}cdn/zotero.zip`,
        digest: `sha256:${hex(zip)}`,
      },
      {
        name: "tampered",
        type: "skill-md",
        description: "x",
        url: "csv-tools/SKILL.md",
        digest: `sha256:${"0".repeat(64)}`,
      },
      {
        name: "future",
        type: "plugin",
        description: "x",
        url: "x",
        digest: `sha256:${"0".repeat(64)}`,
      },
    ]);
    const into = await tempDir();
    const result = await installFromSource(site.url, { communityDir: into });
    assert.deepEqual(result.skills.map((s) => [s.name, s.action]), [
      ["csv-tools", "install"],
      ["pdf-form", "install"],
      ["pyzotero", "install"],
      ["tampered", "refused"],
    ]);
    assert.match(
      result.skills[3].reason!,
      /has sha256:[0-9a-f]{64}, but the index says sha256:0{64}; refusing it/,
    );
    assert.match(
      result.notes.join("\n"),
      /entry 5 \("future"\) is left out: its type "plugin" is not known/,
    );
    for (const file of await readdir(join(REAL_SKILLS, "pyzotero"), { recursive: true })) {
      const source = join(REAL_SKILLS, "pyzotero", file);
      if ((await readdir(source).catch(() => undefined)) !== undefined) continue;
      assert.deepEqual(await readFile(join(into, "pyzotero", file)), await readFile(source), file);
    }
    const lock = await readLockFile(into);
    const pdf = lock.find((e) => e.name === "pdf-form")!;
    assert.deepEqual([pdf.sourceType, pdf.version, pdf.artifact], [
      "well-known",
      "1.2.0",
      hex(tgz),
    ]);
    assert.equal(pdf.source, `${site.url}.well-known/agent-skills/index.json`);
    assert.equal(Object.keys(pdf.files ?? {}).length, 4);
    // Nothing changed at the site: every skill is up to date.
    const again = await updateSkills([], { communityDir: into });
    assert.deepEqual(new Set(again.changes.map((c) => c.action)), new Set(["unchanged"]));
  });

  test("hostile archives (../, a symlink, past the caps) and an unknown schema write nothing", async () => {
    const skill = "---\nname: evil\ndescription: Evil. Use never.\n---\n";
    const cases: Array<[string, Uint8Array, RegExp]> = [
      [
        "dotdot",
        await tarGz([{ path: "SKILL.md", text: skill }, { path: "../escape.txt", text: "x" }]),
        /"\.\.\/escape\.txt" leads out of the skill folder/,
      ],
      [
        "link",
        await tarGz([{ path: "SKILL.md", text: skill }, { path: "passwd", link: "/etc/passwd" }]),
        /"passwd" is a symbolic link/,
      ],
      [
        "absolute",
        await tarGz([{ path: "SKILL.md", text: skill }, { path: "/etc/x", text: "x" }]),
        /"\/etc\/x" is not a relative path/,
      ],
      [
        "bomb",
        await tarGz([{ path: "SKILL.md", text: skill }, {
          path: "big.txt",
          text: "0".repeat(3_000_000),
        }]),
        /unpacks to more than|more than 1000000 bytes/,
      ],
      ["empty", await tarGz([{ path: "notes.md", text: "x" }]), /holds no SKILL\.md at its root/],
    ];
    const skills = [];
    for (const [name, bytes] of cases) {
      serve(`${name}.tar.gz`, bytes, "application/gzip");
      skills.push({
        name,
        type: "archive",
        description: "x",
        url: `/${name}.tar.gz`,
        digest: `sha256:${hex(bytes)}`,
      });
    }
    index(skills);
    const into = await tempDir();
    const result = await installFromSource(`${site.url}.well-known/agent-skills/index.json`, {
      communityDir: into,
      maxBytes: 1_000_000,
    });
    for (const [i, [name, , reason]] of cases.entries()) {
      assert.equal(result.skills[i].action, "refused", name);
      assert.match(result.skills[i].reason!, reason, name);
    }
    assert.deepEqual(await readdir(into), []);
    index([], "https://example.org/other-schema.json");
    await assert.rejects(
      installFromSource(site.url, { communityDir: into }),
      /has the \$schema "https:\/\/example\.org\/other-schema\.json"; this client reads/,
    );
  });
});
