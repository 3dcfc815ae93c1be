// Shared by the tests of every path (parse, lint, list, resolve, show, serve, MCP source,
// install, prompt): the vendored real skills (test/fixtures/agent-skills, 45 folders of
// K-Dense-AI/claude-scientific-skills, MIT), the hand-made shapes (test/fixtures/agent-shapes),
// and what a test adds at run time: the secret and key files the dot-file rule keeps out, and
// hostile folders (a symlink out, 10,000 files, 100 MB) that are never committed.
import { cp, mkdir, mkdtemp, open, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The 45 vendored published skills (plus README.md and LICENSE.md). */
export const REAL_SKILLS: string = fileURLToPath(
  new URL("./fixtures/agent-skills/", import.meta.url),
);
/** The hand-made shapes, one folder each (see its README.md). */
export const SHAPES: string = fileURLToPath(new URL("./fixtures/agent-shapes/", import.meta.url));

/** The shapes that load, by folder; the others are refused. */
export const SHAPES_LOADED = [
  "ahrefs-automation",
  "csv-tools",
  "deep-folders",
  "dot-files",
  "long-description",
  "mermaid-notes",
  "pdf-form",
];
/** The shapes refused, with a pattern of the reason. */
export const SHAPES_REFUSED: Record<string, RegExp> = {
  "bad-yaml": /not valid YAML/,
  "no-description": /"description" is missing/,
  "zoho_mail-automation":
    /Invalid skill name "zoho_mail-automation"|"zoho_mail-automation" is not a valid skill name/,
};

/** A fresh temp folder. */
export function tempDir(prefix = "skillmux-agent-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** The skill folders of `root` (folders holding SKILL.md), sorted. */
export async function skillFolders(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const has = await readFile(join(root, entry.name, "SKILL.md")).then(() => true, () => false);
    if (has) out.push(entry.name);
  }
  return out.sort();
}

/**
 * A copy of the shapes in a temp folder, with what the dot-file rule keeps out added to
 * `dot-files/`: `.env`, `id_rsa`, `server.pem` and a `.git/` folder.
 */
export async function shapesWithSecrets(): Promise<string> {
  const root = await tempDir();
  await cp(SHAPES, root, { recursive: true });
  const dot = join(root, "dot-files");
  await writeFile(join(dot, ".env"), "API_KEY=sk-not-a-real-secret\n");
  await writeFile(join(dot, "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nnot real\n");
  await writeFile(join(dot, "assets", "server.pem"), "-----BEGIN CERTIFICATE-----\n");
  await mkdir(join(dot, ".git"));
  await writeFile(join(dot, ".git", "config"), "[core]\n");
  return root;
}

/** The files the dot-file rule keeps in `dot-files/` of {@linkcode shapesWithSecrets}. */
export const DOT_FILES_KEPT = [
  ".gitignore",
  "assets/.env.example",
  "assets/pixel.png",
  "references/windows.txt",
];

const SKILL = (name: string) =>
  `---\nname: ${name}\ndescription: A hostile folder. Use when testing refusals.\n---\n# ${name}\n`;

/** A skill folder `name` in `root` holding a symlink to a file outside it. */
export async function symlinkOut(root: string, name = "symlink-out"): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "SKILL.md"), SKILL(name));
  const outside = join(root, "outside-secret.txt");
  await writeFile(outside, "secret\n");
  await symlink(outside, join(dir, "notes.txt"));
  return dir;
}

/** A skill folder with `count` small files (10,000 by default). */
export async function manyFiles(
  root: string,
  count = 10_000,
  name = "many-files",
): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "data"), { recursive: true });
  await writeFile(join(dir, "SKILL.md"), SKILL(name));
  for (let i = 0; i < count; i += 500) {
    await Promise.all(
      Array.from(
        { length: Math.min(500, count - i) },
        (_, k) => writeFile(join(dir, "data", `f${i + k}.txt`), "x"),
      ),
    );
  }
  return dir;
}

/** A skill folder holding one sparse file of `bytes` (100 MB by default): no disk is used. */
export async function bigFile(
  root: string,
  bytes = 100_000_000,
  name = "big-file",
): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "SKILL.md"), SKILL(name));
  const handle = await open(join(dir, "big.bin"), "w");
  await handle.truncate(bytes);
  await handle.close();
  return dir;
}
