// A registry stub on loopback serving the MCP Registry's `/v0.1/` API from documents: search
// (substring of the name, as the official registry does), `version=latest`, cursors, one
// server's versions and one version; extra routes for files and hostile answers. It records
// every request and how many bytes each answer sent before the client stopped reading.
import { readFile } from "node:fs/promises";
import * as http from "node:http";
import { fileURLToPath } from "node:url";
import { listenLocal } from "./_servers.ts";

/** One version of a server, as the stub serves it. */
export interface StubEntry {
  server: Record<string, unknown>;
  status?: "active" | "deprecated" | "deleted";
  statusMessage?: string;
  /** Default: the last entry of its name in the list. */
  isLatest?: boolean;
  /** Sent as `_meta` as is, instead of the official metadata (hostile answers). */
  meta?: unknown;
}

/** A route that answers by itself. */
export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export interface DirectoryStub {
  url: string;
  /** Paths and queries asked, in order. */
  requests: string[];
  /** Bytes each streamed route wrote before the client went away, by path. */
  sent: Map<string, number>;
  entries: StubEntry[];
  close(): Promise<void>;
}

const FIXTURES = fileURLToPath(new URL("../fixtures/server-json/", import.meta.url));

/** A fixture document of test/fixtures/server-json/. */
export async function fixture(name: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(`${FIXTURES}${name}.json`, "utf8"));
}

/** Every fixture document. */
export const FIXTURE_NAMES = [
  "brave-search",
  "knapcode-nuget",
  "filesystem",
  "weather-pypi",
  "database-manager",
  "hybrid",
  "text-editor-mcpb",
  "snyk",
  "embedded",
  "tenant-remote",
] as const;

/** The installed @modelcontextprotocol/server-everything's version. */
export const EVERYTHING_VERSION: string = JSON.parse(
  await readFile(
    fileURLToPath(
      new URL(
        "../../node_modules/@modelcontextprotocol/server-everything/package.json",
        import.meta.url,
      ),
    ),
    "utf8",
  ),
).version;

/** A registry entry for the installed server-everything, an npm package run with npx. */
export function everythingEntry(): StubEntry {
  return {
    server: {
      name: "io.github.modelcontextprotocol/everything",
      description: "MCP server that exercises all the features of the MCP protocol",
      version: EVERYTHING_VERSION,
      packages: [{
        registryType: "npm",
        identifier: "@modelcontextprotocol/server-everything",
        version: EVERYTHING_VERSION,
        transport: { type: "stdio" },
      }],
    },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** A route that streams `bytes` bytes of JSON-looking text and counts what it wrote. */
export function streamed(bytes: number, sent: Map<string, number>, key: string): Route {
  return async (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    res.write('{"servers":["');
    while (written < bytes && !res.destroyed) {
      const ok = res.write(chunk);
      written += chunk.length;
      sent.set(key, written);
      if (!ok) {
        await new Promise<void>((r) => {
          res.once("drain", r);
          res.once("close", r);
        });
      }
    }
    res.end('"]}');
  };
}

export async function startDirectoryStub(
  options: {
    entries: StubEntry[];
    routes?: Record<string, Route>;
    maxPage?: number;
    /** Answer browsers of any origin, as the official registry does. */
    cors?: boolean;
  },
): Promise<DirectoryStub> {
  const requests: string[] = [];
  const sent = new Map<string, number>();
  const entries = options.entries;
  const latest = (e: StubEntry) =>
    e.isLatest ?? entries.filter((x) => x.server.name === e.server.name).at(-1) === e;
  const item = (e: StubEntry) => ({
    server: e.server,
    _meta: e.meta ?? {
      "io.modelcontextprotocol.registry/official": {
        status: e.status ?? "active",
        ...(e.statusMessage ? { statusMessage: e.statusMessage } : {}),
        publishedAt: "2025-12-11T10:00:00Z",
        updatedAt: "2025-12-11T10:00:00Z",
        isLatest: latest(e),
      },
    },
  });
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://stub");
    if (options.cors) {
      res.setHeader("access-control-allow-origin", "*");
      if (req.method === "OPTIONS") {
        return void res.writeHead(204, { "access-control-allow-headers": "*" }).end();
      }
    }
    requests.push(url.pathname + url.search);
    const route = options.routes?.[url.pathname];
    if (route) return void await route(req, res);
    if (url.pathname === "/v0.1/servers") {
      const search = url.searchParams.get("search")?.toLowerCase();
      let list = entries.filter((e) =>
        !search || String(e.server.name).toLowerCase().includes(search)
      );
      if (url.searchParams.get("version") === "latest") list = list.filter(latest);
      const limit = Math.min(Number(url.searchParams.get("limit") ?? 30), options.maxPage ?? 100);
      const start = Number((url.searchParams.get("cursor") ?? "c0").slice(1));
      const page = list.slice(start, start + limit);
      const more = start + limit < list.length;
      return send(res, 200, {
        servers: page.map(item),
        metadata: { count: page.length, ...(more ? { nextCursor: `c${start + limit}` } : {}) },
      });
    }
    const m = /^\/v0\.1\/servers\/([^/]+)\/versions(?:\/([^/]+))?$/.exec(url.pathname);
    if (m) {
      const name = decodeURIComponent(m[1]);
      const all = entries.filter((e) => e.server.name === name);
      if (all.length === 0) return send(res, 404, { error: "Server not found" });
      if (m[2] === undefined) return send(res, 200, { servers: [...all].reverse().map(item) });
      const version = decodeURIComponent(m[2]);
      const found = version === "latest"
        ? all.find(latest)
        : all.find((e) => e.server.version === version);
      return found
        ? send(res, 200, item(found))
        : send(res, 404, { error: "Server version not found" });
    }
    send(res, 404, { error: "not found" });
  });
  const { port, close } = await listenLocal(server);
  return { url: `http://127.0.0.1:${port}`, requests, sent, entries, close };
}
