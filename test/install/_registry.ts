// A skill registry for tests: a real HTTP server on 127.0.0.1 port 0 serving index.json and the
// skill files from memory, with hooks to break it (wrong digests, 404s, huge bodies, 503s).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import assert from "node:assert/strict";
import { after, before, beforeEach } from "node:test";
import { type InstallError, isInstallError } from "../../lib/install/mod.ts";

/** A file the registry serves. */
export type Served = string | ((req: IncomingMessage, res: ServerResponse) => void);

export interface TestRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** Files by path (`index.json`, `skills/x.md`); change them between requests. */
  files: Map<string, Served>;
  /** Paths requested so far. */
  requests: string[];
  close(): Promise<void>;
}

export async function startRegistry(): Promise<TestRegistry> {
  const files = new Map<string, Served>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.slice(1));
    requests.push(path);
    const file = files.get(path);
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    } else if (typeof file === "function") {
      file(req, res);
    } else {
      const body = new TextEncoder().encode(file);
      res.writeHead(200, { "content-type": "text/plain", "content-length": body.byteLength });
      res.end(body);
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    files,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections?.();
        server.close(() => done());
      }),
  };
}

/** `sha256:<hex>` of `text` (UTF-8). */
export async function digestOf(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `sha256:${
    Array.from(new Uint8Array(hash), (b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}

/** A valid skill document named `name`. */
export function skillText(name: string, note = "v1"): string {
  return `---\nname: ${name}\ndescription: The ${name} skill (${note}). Use when testing installs.\n` +
    `checked_version: "1.0"\n---\n\n## Concepts\n\n- ${note}\n`;
}

/** Serve `name` as a single-file skill at `skills/<name>.md` and return its index entry. */
export async function publish(
  registry: TestRegistry,
  name: string,
  version: string,
  text = skillText(name, version),
): Promise<Record<string, unknown>> {
  registry.files.set(`skills/${name}.md`, text);
  return {
    name,
    description: `The ${name} skill`,
    version,
    digest: await digestOf(text),
    url: `skills/${name}.md`,
  };
}

/** Serve `entries` as the index. */
export function setIndex(registry: TestRegistry, entries: unknown[]): void {
  registry.files.set("index.json", JSON.stringify({ skills: entries }));
}

/** A handler streaming `bytes` zero bytes in 64 KiB chunks, with or without a Content-Length. */
export function hugeBody(bytes: number, declare: boolean): Served {
  return (_req, res) => {
    res.writeHead(200, declare ? { "content-length": bytes } : {});
    const chunk = new Uint8Array(64 * 1024).fill(65);
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !res.destroyed) {
        sent += chunk.byteLength;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      if (!res.destroyed) res.end();
    };
    res.on("close", () => (sent = bytes));
    pump();
  };
}

/**
 * One registry for a test file (started before its tests, closed after) and a fresh, empty
 * community folder for each test; `use` receives both before each test.
 */
export function useRegistry(prefix: string, use: (registry: TestRegistry, dir: string) => void) {
  let registry: TestRegistry;
  let dir: string | undefined;
  before(async () => {
    registry = await startRegistry();
  });
  after(async () => {
    await registry.close();
    if (dir) await rm(dirname(dir), { recursive: true, force: true });
  });
  beforeEach(async () => {
    registry.files.clear();
    registry.requests.length = 0;
    if (dir) await rm(dirname(dir), { recursive: true, force: true });
    dir = join(await mkdtemp(join(tmpdir(), prefix)), "community");
    use(registry, dir);
  });
}

/** The InstallError `promise` rejects with (fails when it resolves or rejects with another error). */
export async function failure(promise: Promise<unknown>): Promise<InstallError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(isInstallError(error), `not an InstallError: ${error}`);
  return error as InstallError;
}

/** Serve `name` as a folder skill of `version` with one script; its index entry. */
export async function folderSkill(
  registry: TestRegistry,
  name: string,
  version: string,
  script = "print(1)\n",
) {
  const doc = skillText(name, version);
  registry.files.set(`pkg/${name}/SKILL.md`, doc);
  registry.files.set(`pkg/${name}/run.py`, script);
  return {
    name,
    description: `The ${name} skill`,
    version,
    digest: await digestOf(doc),
    url: `pkg/${name}/SKILL.md`,
    files: [{ path: "bin/run.py", url: `pkg/${name}/run.py`, digest: await digestOf(script) }],
  };
}
