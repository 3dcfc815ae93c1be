// Reads the project's Markdown (README.md and every docs/**/*.md) the way GitHub
// renders it: fenced code blocks, links outside code, and the anchors headings get.
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, as a path. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url));

/** A fenced ```ts block: the line it starts on and its text. */
export interface Block {
  line: number;
  code: string;
}

/** A link `[text](target)` outside code: the line it is on and its target. */
export interface Link {
  line: number;
  target: string;
}

/**
 * The Markdown files a reader gets: README.md and every `.md` under docs/ (sub-folders too, but
 * not docs/api/, the generated API reference), as paths relative to the repository root, sorted.
 */
export async function docFiles(): Promise<string[]> {
  const found = ["README.md"];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && path !== "docs/api") await walk(path);
      else if (entry.isFile() && entry.name.endsWith(".md")) found.push(path);
    }
  };
  await walk("docs");
  return found.sort();
}

/** Each line of `markdown` with whether it is inside a fenced code block (fences included). */
function fencedLines(markdown: string): Array<{ text: string; fenced: boolean }> {
  let fence: string | undefined;
  return markdown.split("\n").map((text) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence === undefined && open !== undefined) {
      fence = open;
      return { text, fenced: true };
    }
    if (fence !== undefined) {
      if (text.trim() === fence) fence = undefined;
      return { text, fenced: true };
    }
    return { text, fenced: false };
  });
}

/** The ```ts blocks of `markdown`, with the line each starts on, minus opted-out ones. */
export function typeScriptBlocks(markdown: string): { checked: Block[]; skipped: Block[] } {
  const lines = markdown.split("\n");
  const checked: Block[] = [];
  const skipped: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(`{3,})(ts|typescript)\s*$/);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== open[1]; i++) body.push(lines[i]);
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === "") before--;
    const optOut = before >= 0 && /^<!-- not checked: .+ -->$/.test(lines[before].trim());
    (optOut ? skipped : checked).push({ line: start + 1, code: body.join("\n") });
  }
  return { checked, skipped };
}

/** The first fenced block of `markdown` in `language` that follows `marker` (a line of text). */
export function blockAfter(markdown: string, marker: string, language: string): string {
  const at = markdown.indexOf(marker);
  if (at < 0) throw new Error(`no "${marker}" in the Markdown`);
  const rest = markdown.slice(at).split("\n");
  const start = rest.findIndex((line) => line === "```" + language);
  if (start < 0) throw new Error(`no \`\`\`${language} block after "${marker}"`);
  const end = rest.findIndex((line, i) => i > start && line === "```");
  return rest.slice(start + 1, end).join("\n");
}

/** Links `[text](target)` and images outside fenced blocks and inline code, with their line. */
export function markdownLinks(markdown: string): Link[] {
  const links: Link[] = [];
  fencedLines(markdown).forEach(({ text, fenced }, i) => {
    if (fenced) return;
    const prose = text.replace(/`[^`]*`/g, "``");
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: i + 1, target: match[1] });
    }
  });
  return links;
}

/** GitHub's anchor for a heading's text: lowercased, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor the headings of `markdown` get (a repeated heading gets `-1`, `-2`, …). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text, fenced } of fencedLines(markdown)) {
    const heading = fenced ? undefined : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** A path relative to the repository root, for messages. */
export function fromRoot(path: string): string {
  return relative(ROOT, path);
}
