// `skillmux skill install|update|uninstall|search` end to end against a registry on 127.0.0.1:
// in-process and as a real subprocess of the current runtime (Deno or Node).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cli, sub, tempHome } from "./_helpers.ts";
import { SHAPES } from "../_agent_skills.ts";

const run = promisify(execFile);
import {
  publish,
  setIndex,
  skillText,
  startRegistry,
  type TestRegistry,
} from "../install/_registry.ts";

let registry: TestRegistry;
let home: Awaited<ReturnType<typeof tempHome>>;
let community: string;

before(async () => {
  registry = await startRegistry();
  home = await tempHome();
  community = join(home.dir, "data", "skillmux", "skills");
  // The default registry comes from config.toml.
  const config = join(home.dir, "config", "skillmux");
  await mkdir(config, { recursive: true });
  await writeFile(join(config, "config.toml"), `[skills]\nregistry = "${registry.url}"\n`);
});
after(async () => {
  await registry.close();
  await home.close();
});

test("install --dry-run, install, list, update, search and uninstall from the CLI", async () => {
  setIndex(registry, [
    {
      ...await publish(registry, "kraken2", "1.0.0"),
      description: "Taxonomic read classification",
    },
  ]);
  const dry = await cli(["skill", "install", "kraken2", "--dry-run"], home.env);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(
    dry.stdout,
    /- Would install "kraken2" 1\.0\.0 \(kraken2\.md\)\nDry run: nothing was written\./,
  );
  await assert.rejects(readFile(join(community, "kraken2.md")));

  const done = await cli(["skill", "install", "kraken2"], home.env);
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stdout, /✓ Install "kraken2" 1\.0\.0 \(kraken2\.md\)/);
  const listed = await cli(["skill", "list", "--json"], home.env);
  const { skills } = JSON.parse(listed.stdout) as { skills: { name: string; source: string }[] };
  assert.equal(skills.find((s) => s.name === "kraken2")?.source, "community");

  setIndex(registry, [await publish(registry, "kraken2", "1.1.0")]);
  const updated = await cli(["skill", "update", "--json"], home.env);
  assert.equal(updated.code, 0, updated.stderr);
  assert.deepEqual(JSON.parse(updated.stdout).changes.map((c: { action: string }) => c.action), [
    "update",
  ]);
  assert.equal(
    await readFile(join(community, "kraken2.md"), "utf8"),
    skillText("kraken2", "1.1.0"),
  );
  const lock = JSON.parse(await readFile(join(community, "skillmux-lock.json"), "utf8"));
  assert.equal(lock.skills.kraken2.version, "1.1.0");
  assert.equal(lock.skills.kraken2.source, `${registry.url}index.json`);
  assert.match(lock.skills.kraken2.sha256, /^[0-9a-f]{64}$/);

  const found = await cli(["skill", "search", "sort", "a", "bam", "by", "coordinate"], home.env);
  assert.equal(found.code, 0, found.stderr);
  assert.match(found.stdout, /^NAME +SOURCE +DESCRIPTION\nsamtools +builtin/);
  const kraken = await cli(["skill", "search", "kraken2"], home.env);
  assert.match(kraken.stdout, /kraken2 +registry 1\.1\.0/);
  assert.match(kraken.stdout, /kraken2 +community/);

  const removed = await cli(["skill", "uninstall", "kraken2"], home.env);
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /✓ Uninstall "kraken2" 1\.1\.0/);
  await assert.rejects(readFile(join(community, "kraken2.md")));
});

test("failures are one line with exit code 1: wrong digest, unknown name, bad name", async () => {
  const entry = await publish(registry, "bracken", "1.0.0");
  registry.files.set("skills/bracken.md", skillText("bracken", "tampered"));
  setIndex(registry, [entry]);
  const digest = await cli(["skill", "install", "bracken"], home.env);
  assert.equal(digest.code, 1);
  assert.match(
    digest.stderr,
    /^skillmux: Skill "bracken": .* but the index says sha256:.*writing nothing\n$/,
  );
  await assert.rejects(readFile(join(community, "bracken.md")));
  const missing = await cli(["skill", "install", "nope", "--registry", registry.url], home.env);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /has no skill named "nope"/);
  const bad = await cli(["skill", "install", "Bad Name"], home.env);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^skillmux: Invalid skill name "bad name"/);
  // A path is a folder to install from, not a name: a missing one says so.
  const path = await cli(["skill", "install", "../x"], home.env);
  assert.equal(path.code, 1);
  assert.match(path.stderr, /^skillmux: Cannot read \.\.\/x/);
  const none = await cli(["skill", "install", "x"], { ...home.env, XDG_CONFIG_HOME: home.dir });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /No skill registry is configured/);
  const usage = await cli(["skill", "install"], home.env);
  assert.equal(usage.code, 2);
});

test("install as a real subprocess of this runtime", async () => {
  setIndex(registry, [await publish(registry, "bowtie3", "0.9.0")]);
  const result = await sub(["skill", "install", "bowtie3", "--json"], home.env);
  assert.equal(result.code, 0, result.stderr);
  const { changes } = JSON.parse(result.stdout) as { changes: { name: string; to: string }[] };
  assert.deepEqual(changes.map((c) => [c.name, c.to]), [["bowtie3", "0.9.0"]]);
  assert.equal(
    await readFile(join(community, "bowtie3.md"), "utf8"),
    skillText("bowtie3", "0.9.0"),
  );
});

test("install from a git repository with #ref: pinned, listed with its origin, updated, never run", async () => {
  const own = await tempHome();
  try {
    const repo = join(own.dir, "repo");
    await mkdir(join(repo, "skills"), { recursive: true });
    await cp(join(SHAPES, "pdf-form"), join(repo, "skills/pdf-form"), { recursive: true });
    const git = (...args: string[]) =>
      run("git", ["-c", "user.email=t@example.org", "-c", "user.name=t", ...args], { cwd: repo });
    await git("init", "-q", "-b", "main");
    await git("add", "-A");
    await git("commit", "-qm", "one");
    const commit = (await git("rev-parse", "HEAD")).stdout.trim();
    const installed = await cli(["skill", "install", `file://${repo}#main`], own.env);
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    assert.match(
      installed.stdout,
      new RegExp(`^From git file://\\S+#main at ${commit.slice(0, 12)}:\\n`),
    );
    assert.match(
      installed.stdout,
      /✓ Added "pdf-form" in the community skills: pdf-form\/SKILL\.md \(4 files/,
    );
    const listed = await cli(["skill", "list", "--no-builtin"], own.env);
    assert.match(
      listed.stdout,
      new RegExp(`pdf-form\\s+community\\s+-\\s+git @${commit.slice(0, 7)} file://`),
    );
    const json = JSON.parse(
      (await cli(["skill", "list", "--json", "--no-builtin"], own.env)).stdout,
    );
    assert.deepEqual(
      [json.skills[0].installed.sourceType, json.skills[0].installed.commit],
      ["git", commit],
    );
    const updated = await cli(["skill", "update"], own.env);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /"pdf-form" [0-9a-f]{7} is up to date/);
    const many = await cli(["skill", "install", `file://${repo}`, "kraken2"], own.env);
    assert.equal(many.code, 1);
    assert.match(many.stderr, /one git repository, folder or site at a time/);
  } finally {
    await own.close();
  }
});
