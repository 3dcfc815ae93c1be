// Private: the SEP-2640 entries of served skills (`skill://<name>/SKILL.md` and one
// `skill://<name>/<path>` per file, each with its size and `sha256:` digest, from the catalog:
// nothing is read to list), the resources of files, and reading one file as MCP contents.

import { createHash } from "node:crypto";
import { readFrontMatter } from "../skill/front_matter.ts";
import type { ServedEntry } from "./_catalog.ts";

const TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  py: "text/x-python",
  sh: "text/x-shellscript",
  js: "text/javascript",
  ts: "text/x-typescript",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  html: "text/html",
  css: "text/css",
  csv: "text/csv",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  ttf: "font/ttf",
  otf: "font/otf",
  woff2: "font/woff2",
};

/** The MIME type of a file, by its extension (`application/octet-stream` when unknown). */
export function mimeOf(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (ext !== undefined ? TYPES[ext] : undefined) ?? "application/octet-stream";
}

/** `skill://<name>/<path>`, each segment percent-encoded. */
export function fileUri(name: string, path: string): string {
  return `skill://${name}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

const digest = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** Entries by catalog entry: a snapshot's entries are built once, and so are theirs. */
const entries = new WeakMap<ServedEntry, Promise<Record<string, unknown>>>();

/**
 * The `skills/list` entry of one served skill. `_meta["io.skillmux/summary"]` carries its concepts
 * and example tasks, so a client ranks it by keywords without reading `SKILL.md`. Built once per
 * catalog entry (an unchanged folder answers from memory).
 */
export function skillEntry(entry: ServedEntry): Promise<Record<string, unknown>> {
  let built = entries.get(entry);
  if (built === undefined) {
    built = buildEntry(entry);
    entries.set(entry, built);
    built.catch(() => entries.delete(entry));
  }
  return built;
}

async function buildEntry(entry: ServedEntry): Promise<Record<string, unknown>> {
  const uri = `skill://${entry.name}/SKILL.md`;
  const text = new TextEncoder().encode(entry.text);
  return {
    uri,
    frontmatter: await readFrontMatter(entry.text) ?? {
      name: entry.name,
      description: entry.description,
    },
    resources: [
      { uri, digest: digest(text), size: text.byteLength },
      ...entry.files.map((file) => ({
        uri: fileUri(entry.name, file.path),
        digest: file.digest,
        size: file.size,
      })),
    ],
    _meta: {
      "io.skillmux/summary": { keywords: entry.keywords, tasks: entry.tasks },
    },
  };
}

/** The `resources/list` rows of the files of `entry` (named `<skill>/<path>`: never a skill name). */
export function fileResources(entry: ServedEntry): Array<Record<string, unknown>> {
  return entry.files.map((file) => ({
    uri: fileUri(entry.name, file.path),
    name: `${entry.name}/${file.path}`,
    title: `${file.path} of skill ${entry.name}`,
    mimeType: mimeOf(file.path),
    size: file.size,
  }));
}

/** The file of `entry` at the percent-encoded `rest` of a URI, or `undefined`. */
export function fileAt(entry: ServedEntry, rest: string): string | undefined {
  let path: string;
  try {
    path = rest.split("/").map(decodeURIComponent).join("/");
  } catch {
    return undefined;
  }
  return entry.files.some((f) => f.path === path) ? path : undefined;
}

/** The contents of a `resources/read` of a file: UTF-8 text as text, anything else as a blob. */
export function fileContents(
  uri: string,
  path: string,
  bytes: Uint8Array,
): Record<string, unknown> {
  const mimeType = mimeOf(path);
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return {
      uri,
      mimeType: mimeType === "application/octet-stream" ? "text/plain" : mimeType,
      text,
    };
  } catch {
    return { uri, mimeType, blob: Buffer.from(bytes).toString("base64") };
  }
}
