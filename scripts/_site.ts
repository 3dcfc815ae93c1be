/**
 * Helpers of `npm start` (scripts/start.ts): the static site of `playground/dist` (gzip when the
 * browser accepts it), the build stamp that lets an unchanged checkout skip the Vite build, and a
 * port that moves to the next free one when taken.
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { gzipSync } from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/** Serve `root` (files, else `index.html`), gzip-compressed when the request accepts gzip. */
export function staticFiles(
  root: string,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const zipped = new Map<string, Buffer>();
  return async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const file = path.join(
      root,
      path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ""),
    );
    const found = file.startsWith(root) ? await stat(file).catch(() => undefined) : undefined;
    const target = found?.isFile() ? file : path.join(root, "index.html");
    let body: Buffer;
    try {
      body = await readFile(target);
    } catch {
      res.writeHead(404).end("Not found: run `npm start` to build the playground");
      return;
    }
    const type = TYPES[path.extname(target)];
    const headers: Record<string, string> = { "content-type": type ?? "application/octet-stream" };
    if (type !== undefined && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
      const key = `${target}:${body.length}:${createHash("sha1").update(body).digest("hex")}`;
      if (!zipped.has(key)) zipped.set(key, gzipSync(body));
      body = zipped.get(key)!;
      headers["content-encoding"] = "gzip";
    }
    if (type !== undefined) headers.vary = "Accept-Encoding";
    res.writeHead(200, headers);
    res.end(body);
  };
}

/** Every file under `dirs` (relative to `cwd`), skipping `dist` and `node_modules`. */
async function files(cwd: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(cwd, dir), { withFileTypes: true }).catch(() => [])) {
    const name = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "dist" && entry.name !== "node_modules") {
        out.push(...await files(cwd, name));
      }
    } else if (entry.isFile()) out.push(name);
  }
  return out;
}

/** A digest of the playground's sources, the library and the lock file. */
export async function sourceDigest(cwd: string): Promise<string> {
  const hash = createHash("sha256");
  const all = [...await files(cwd, "playground"), ...await files(cwd, "lib"), "package-lock.json"];
  for (const name of all.sort()) {
    hash.update(name).update("\0").update(await readFile(path.join(cwd, name)).catch(() => ""))
      .update("\0");
  }
  return hash.digest("hex");
}

/** The stamp file in the build output that records which sources it was built from. */
export const STAMP = ".source-digest";

/** Whether `dist` was built from sources with `digest` (and still has its index.html). */
export async function builtFrom(dist: string, digest: string): Promise<boolean> {
  const stamp = await readFile(path.join(dist, STAMP), "utf8").catch(() => "");
  const index = await stat(path.join(dist, "index.html")).catch(() => undefined);
  return stamp.trim() === digest && index !== undefined;
}

/** Record that `dist` was built from sources with `digest`. */
export async function stamp(dist: string, digest: string): Promise<void> {
  await writeFile(path.join(dist, STAMP), digest + "\n");
}

/**
 * `listen(port)`, moving to the next port while it is taken (10 tries), as Vite does; says so on
 * stderr. Port 0 is any free port. Errors other than a taken port are thrown.
 */
export async function listenFrom<T>(
  port: number,
  what: string,
  listen: (port: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await listen(port + (port === 0 ? 0 : attempt));
    } catch (error) {
      if ((error as { code?: string }).code !== "EADDRINUSE" || port === 0 || attempt >= 9) {
        throw error;
      }
      console.error(`${what}: port ${port + attempt} is taken, trying ${port + attempt + 1}`);
    }
  }
}
