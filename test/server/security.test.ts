// The HTTP edge: bearer token, Origin allow-list, CORS preflight, Host check, logging.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { post } from "./_helpers.ts";
import { waitUntil } from "../_wait.ts";

const TOKEN = "tok-3f9a7c1e-secret";
const lines: string[] = [];
let guarded: SkillsServer;
let open: SkillsServer;

before(async () => {
  guarded = await serveSkills({ token: TOKEN, log: (line) => lines.push(line) });
  open = await serveSkills({ allowedOrigins: ["https://app.example"] });
});

after(async () => {
  await guarded?.close();
  await open?.close();
});

const bearer = { authorization: `Bearer ${TOKEN}` };

describe("bearer token", () => {
  test("401 with WWW-Authenticate without it, or with a wrong one; 200 with it", async () => {
    const none = await post(guarded.url);
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    await none.body?.cancel();
    const wrong = await post(guarded.url, { authorization: "Bearer nope" });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const ok = await post(guarded.url, bearer);
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  });

  test("one log line per request, never the token", async () => {
    const before = lines.length;
    const ok = await post(guarded.url, bearer);
    await ok.text();
    await waitUntil(() => lines.slice(before).some((l) => l.startsWith("POST")), 10_000);
    const line = lines.slice(before).find((l) => l.startsWith("POST"));
    assert.match(line ?? "", /^POST \/mcp initialize 200 \d+(\.\d+)?ms$/);
    assert.ok(lines.length > 0);
    assert.ok(lines.every((l) => !l.includes(TOKEN)), lines.join("\n"));
  });
});

describe("origins and CORS", () => {
  test("a foreign Origin gets 403 (default allow-list: loopback)", async () => {
    const response = await post(guarded.url, { ...bearer, origin: "https://evil.example" });
    assert.equal(response.status, 403);
    await response.body?.cancel();
  });

  test("a loopback Origin gets 200 with the CORS headers", async () => {
    const origin = "http://localhost:5173";
    const response = await post(guarded.url, { ...bearer, origin });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("access-control-allow-origin"), origin);
    assert.match(response.headers.get("access-control-expose-headers") ?? "", /Mcp-Session-Id/);
    await response.body?.cancel();
  });

  test("an explicit allow-list replaces the loopback default", async () => {
    const allowed = await post(open.url, { origin: "https://app.example" });
    assert.equal(allowed.status, 200);
    await allowed.body?.cancel();
    const loopback = await post(open.url, { origin: "http://localhost:5173" });
    assert.equal(loopback.status, 403);
    await loopback.body?.cancel();
  });

  test("OPTIONS preflight: 204 with the allow and expose headers, no token needed", async () => {
    const origin = "http://127.0.0.1:8080";
    const response = await fetch(guarded.url, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization, mcp-session-id",
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get("access-control-allow-origin"), origin);
    const allow = (response.headers.get("access-control-allow-headers") ?? "").toLowerCase();
    for (
      const name of [
        "content-type",
        "accept",
        "authorization",
        "mcp-protocol-version",
        "mcp-session-id",
        "last-event-id",
      ]
    ) assert.ok(allow.includes(name), name);
    assert.match(response.headers.get("access-control-allow-methods") ?? "", /POST/);
    assert.match(response.headers.get("access-control-expose-headers") ?? "", /Mcp-Session-Id/);
  });

  test("a preflight from a foreign origin gets 403", async () => {
    const response = await fetch(guarded.url, {
      method: "OPTIONS",
      headers: { origin: "http://[::1].evil.example", "access-control-request-method": "POST" },
    });
    assert.equal(response.status, 403);
    await response.body?.cancel();
  });
});

describe("binding and hosts", () => {
  test("binds 127.0.0.1 by default", () => {
    assert.match(guarded.url, /^http:\/\/127\.0\.0\.1:/);
    assert.match(open.url, /^http:\/\/127\.0\.0\.1:/);
  });

  test("a non-loopback Host header (DNS rebinding) gets 403", async () => {
    const url = new URL(open.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { host: "rebind.example", "content-type": "application/json" },
      }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end("{}");
    });
    assert.equal(status, 403);
  });

  test("other paths are 404; close() is idempotent", async () => {
    const response = await fetch(new URL("/other", open.url));
    assert.equal(response.status, 404);
    await response.body?.cancel();
    const server = await serveSkills();
    await Promise.all([server.close(), server.close()]);
    await server.close();
    await assert.rejects(fetch(server.url));
  });
});
