// The policed GET that MCP registries and community install share: every failure it hands to
// `fail` (kind, URL, status, cause), redirects checked hop by hop, the cap declared and
// streamed, identity encoding as an option, the stall timer; then what each caller gained by
// it, through the public "./install" and "./directory" entries. Against a real HTTP server on
// 127.0.0.1; a browser's opaque redirect is what a fetch wrapper makes of the server's real 3xx.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import {
  type GetFailure,
  policedGet,
  type PolicedGetOptions,
  showUrl,
} from "../../../lib/mcp/transport/policed_get.ts";
import { fetchRegistryIndex, isInstallError } from "../../../lib/install/mod.ts";
import { createOfficialDirectory, isDirectoryError } from "../../../lib/mcp/directory/mod.ts";

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Route>();
const requests: string[] = [];
const headersSeen: IncomingMessage["headers"][] = [];
let base: string;
let server: ReturnType<typeof createServer>;

before(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(path);
    headersSeen.push(req.headers);
    const route = routes.get(path);
    if (route === undefined) res.writeHead(404).end("not found");
    else route(req, res);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections?.();
  await new Promise<void>((done) => server.close(() => done()));
});
beforeEach(() => {
  routes.clear();
  requests.length = 0;
  headersSeen.length = 0;
});

/** A failure thrown as it was handed to `fail`. */
class Failed extends Error {
  constructor(readonly failure: GetFailure) {
    super(failure.message);
  }
}

function get(path: string, options: Partial<PolicedGetOptions> = {}): Promise<Uint8Array> {
  return policedGet(new URL(path, base), {
    maxBytes: 1024,
    accept: "application/json",
    retries: 0,
    fail: (failure) => new Failed(failure),
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<GetFailure> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(error instanceof Failed, `not a failure handed to fail: ${error}`);
  return error.failure;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const send = (status: number, headers: Record<string, string> = {}, body = ""): Route => (_q, r) =>
  r.writeHead(status, headers).end(body);

/** The fetch of a page: a manual redirect comes back opaque (status 0, no headers, no body). */
const browserFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status < 300 || response.status >= 400) return response;
  await response.body?.cancel();
  const opaque = new Response(null);
  Object.defineProperties(opaque, {
    type: { value: "opaqueredirect" },
    status: { value: 0 },
    ok: { value: false },
    headers: { value: new Headers() },
  });
  return opaque;
};

describe("policedGet: what it hands to fail", () => {
  test("a body is read; 404 and 410 are not-found, 403 http, with status and cause; no query shown", async () => {
    routes.set("/ok", send(200, {}, "hello"));
    assert.equal(text(await get("/ok")), "hello");
    for (const [status, kind] of [[404, "not-found"], [410, "not-found"], [403, "http"]] as const) {
      routes.set("/s", send(status));
      const got = await failure(get("/s?token=secret"));
      assert.deepEqual([got.kind, got.status, got.url], [kind, status, `${base}/s`]);
      assert.equal(got.message, `${base}/s answered HTTP ${status}`);
      assert.equal((got.cause as Error).name, "HTTPError");
    }
    assert.equal(showUrl(new URL("https://u:p@example.org/x?k=v")), "https://example.org/x");
  });

  test("the policy is checked on the first URL and on each hop, which field names", async () => {
    const first = await failure(get("http://registry.example.com/x"));
    assert.deepEqual([first.kind, first.field, first.url], [
      "policy",
      "url",
      "http://registry.example.com/x",
    ]);
    assert.match(first.message, /^Refusing http:\/\/registry\.example\.com\/x: url \S+ uses plain/);
    assert.equal((first.cause as Error).name, "PolicyError");
    routes.set("/away", send(302, { location: "http://192.0.2.1/x?key=k" }));
    const hop = await failure(get("/away"));
    assert.deepEqual([hop.kind, hop.field, hop.url], ["policy", "redirect", "http://192.0.2.1/x"]);
    assert.deepEqual(requests, ["/away"]);
  });

  test("redirects: relative to their hop, five at most; past that the first URL is named", async () => {
    routes.set("/a/start", send(307, { location: "../h1" }));
    for (let i = 1; i < 5; i++) routes.set(`/h${i}`, send(302, { location: `/h${i + 1}` }));
    routes.set("/h5", send(200, {}, "end"));
    assert.equal(text(await get("/a/start")), "end");
    assert.deepEqual(requests, ["/a/start", "/h1", "/h2", "/h3", "/h4", "/h5"]);
    routes.set("/h5", send(302, { location: "/h6" }));
    routes.set("/h6", send(200, {}, "too far"));
    const many = await failure(get("/a/start"));
    assert.deepEqual([many.kind, many.redirect, many.url], [
      "redirect",
      "too-many",
      `${base}/a/start`,
    ]);
  });

  test("a 3xx without Location is refused by default, or read as the answer when asked", async () => {
    routes.set("/none", send(300, {}, "the answer"));
    const none = await failure(get("/none"));
    assert.deepEqual([none.kind, none.redirect, none.message], [
      "redirect",
      "nowhere",
      `${base}/none redirected nowhere`,
    ]);
    assert.equal(text(await get("/none", { redirectWithoutLocation: "read" })), "the answer");
  });

  test("a redirect a browser hides is refused, not read as an empty answer", async () => {
    routes.set("/r", send(302, { location: "/elsewhere" }));
    routes.set("/elsewhere", send(200, {}, "{}"));
    for (const redirectWithoutLocation of ["refuse", "read"] as const) {
      const hidden = await failure(get("/r", { fetch: browserFetch, redirectWithoutLocation }));
      assert.deepEqual([hidden.kind, hidden.redirect, hidden.url], [
        "redirect",
        "hidden",
        `${base}/r`,
      ]);
      assert.equal(hidden.message, `${base}/r redirected, and a page cannot see where to`);
    }
    assert.ok(!requests.includes("/elsewhere"));
  });

  test("too large: by Content-Length before reading, or while streaming, at exactly the cap read", async () => {
    routes.set("/declared", send(200, { "content-length": "2000" }, "x".repeat(2000)));
    const declared = await failure(get("/declared"));
    assert.deepEqual([declared.kind, declared.limit, declared.declared], ["too-large", 1024, 2000]);
    assert.equal(declared.message, `${base}/declared sent 2000 bytes; the limit is 1024 bytes`);
    routes.set("/chunked", (_q, res) => {
      res.writeHead(200);
      res.write("x".repeat(1000));
      setTimeout(() => res.end("x".repeat(25)), 20);
    });
    const streamed = await failure(get("/chunked"));
    assert.deepEqual([streamed.kind, streamed.limit, "declared" in streamed], [
      "too-large",
      1024,
      false,
    ]);
    assert.match(streamed.message, /sent more than 1024 bytes; the limit is 1024 bytes$/);
    assert.equal((await get("/chunked", { maxBytes: 1025 })).byteLength, 1025);
  });

  test("identity asked: a content-encoded answer is refused unread; not asked: gzip is decoded within the cap", async () => {
    const json = JSON.stringify({ ok: true });
    routes.set(
      "/gz",
      (_q, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(json)),
    );
    const refused = await failure(get("/gz", { identity: true }));
    assert.deepEqual([refused.kind, refused.encoding], ["encoding", "gzip"]);
    assert.match(refused.message, /Content-Encoding "gzip" although only identity was accepted/);
    assert.equal(headersSeen.at(-1)?.["accept-encoding"], "identity");
    assert.equal(text(await get("/gz")), json);
    assert.notEqual(headersSeen.at(-1)?.["accept-encoding"], "identity");
    // A bomb: 1 MiB of zeros is about a kilobyte of gzip; reading stops at the decoded cap.
    const bomb = gzipSync(new Uint8Array(1024 * 1024));
    assert.ok(bomb.byteLength < 2048);
    routes.set("/bomb", (_q, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(bomb));
    const burst = await failure(get("/bomb", { maxBytes: 64 * 1024 }));
    assert.deepEqual([burst.kind, burst.limit], ["too-large", 64 * 1024]);
  });

  test("a body that stalls past timeoutMs is a timeout; a broken one is network; a signal throws its reason", async () => {
    routes.set("/stall", (_q, res) => void res.writeHead(200).write("{"));
    const started = Date.now();
    const stalled = await failure(get("/stall", { timeoutMs: 300 }));
    assert.equal(stalled.kind, "timeout");
    assert.equal(stalled.message, `the request to ${base}/stall stalled (no data for 300 ms)`);
    assert.ok(Date.now() - started < 5_000);
    routes.set("/silent", () => {});
    const silent = await failure(get("/silent", { timeoutMs: 300 }));
    assert.deepEqual([silent.kind, silent.message], [
      "timeout",
      `the request to ${base}/silent timed out`,
    ]);

    routes.set("/broken", (_q, res) => {
      res.writeHead(200, { "content-length": "500" }).write("x".repeat(10));
      setTimeout(() => res.destroy(), 50);
    });
    const broken = await failure(get("/broken"));
    assert.equal(broken.kind, "network");
    assert.match(broken.message, /^the request to \S+\/broken failed \(.*broke/);

    const controller = new AbortController();
    const reason = new Error("stopped by the caller");
    setTimeout(() => controller.abort(reason), 100);
    const error = await get("/stall", { signal: controller.signal }).then(() => 0, (e) => e);
    assert.equal(error, reason);
  });
});

describe("through each caller: its own error, its words", () => {
  test("install (gained): a redirect a browser hides is refused; a stalled or broken index is a network error", async () => {
    routes.set("/index.json", send(302, { location: "/elsewhere.json" }));
    const options = { registry: `${base}/`, retries: 0 };
    const hidden = await fetchRegistryIndex({ ...options, fetch: browserFetch }).catch((e) => e);
    assert.ok(isInstallError(hidden), String(hidden));
    assert.deepEqual([hidden.code, hidden.url, hidden.message], [
      "http",
      `${base}/index.json`,
      `Cannot download the registry index: ${base}/index.json redirected, and a page cannot see where to`,
    ]);
    routes.set("/index.json", (_q, res) => void res.writeHead(200).write('{"skills":'));
    const stalled = await fetchRegistryIndex({ ...options, timeoutMs: 300 }).catch((e) => e);
    assert.ok(isInstallError(stalled), String(stalled));
    assert.deepEqual([stalled.code, stalled.message], [
      "network",
      `Cannot download the registry index: the request to ${base}/index.json stalled (no data for 300 ms)`,
    ]);
    routes.set("/index.json", (_q, res) => {
      res.writeHead(200, { "content-length": "500" }).write('{"skills":');
      setTimeout(() => res.destroy(), 50);
    });
    const broken = await fetchRegistryIndex(options).catch((e) => e);
    assert.ok(isInstallError(broken), String(broken));
    assert.equal(broken.code, "network");
    assert.ok(broken.cause instanceof Error);
  });

  test("a registry: gzip answers are read (no identity asked); a hidden or Location-less redirect and a stall fail", async () => {
    const page = JSON.stringify({ servers: [], metadata: { count: 0 } });
    routes.set("/v0.1/servers", (_q, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(gzipSync(page));
    });
    const directory = (options = {}) => createOfficialDirectory({ url: `${base}/`, ...options });
    assert.deepEqual((await directory().search("x")).entries, []);
    const refusal = async (options: Record<string, unknown>) => {
      const error = await directory(options).search("x").catch((e) => e);
      assert.ok(isDirectoryError(error), String(error));
      return error;
    };
    routes.set("/v0.1/servers", send(302, { location: "/elsewhere" }));
    const hidden = await refusal({ fetch: browserFetch });
    assert.equal(hidden.code, "http");
    assert.match(hidden.message, /^Cannot read .*redirected, and a page cannot see where to$/);
    routes.set("/v0.1/servers", send(301));
    const nowhere = await refusal({});
    assert.match(nowhere.message, /^Cannot read .*\/v0\.1\/servers redirected nowhere$/);
    routes.set("/v0.1/servers", (_q, res) => void res.writeHead(200).write("{"));
    const stalled = await refusal({ timeoutMs: 300 });
    assert.equal(stalled.code, "network");
    assert.match(stalled.message, /stalled \(no data for 300 ms\)$/);
  });
});
