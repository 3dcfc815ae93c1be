// Who may ask the skills server: the bearer token (any scheme case, exact token, GET and DELETE
// too), the Host check against DNS rebinding (loopback names matched whole) and the log line per
// request, which never holds the token. Real servers on 127.0.0.1, raw HTTP where a header must be
// forged. Origins and CORS: origins.test.ts; paths, bodies, JSON: request_checks.test.ts.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { bearerCheck, hostAllowed, isLoopback } from "../../lib/server/_http.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { INITIALIZE, post, send } from "./_helpers.ts";
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
const json = { "content-type": "application/json", accept: "application/json" };

/** POST initialize to the guarded server (raw HTTP) with these extra headers. */
const initialize = (headers: Record<string, string>) =>
  send(guarded.url, { headers: { ...json, ...headers }, body: INITIALIZE });

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

  test("the scheme in any case and extra spaces are accepted", async () => {
    for (
      const authorization of [`bearer ${TOKEN}`, `BEARER   ${TOKEN}`, `Bearer ${TOKEN}  `]
    ) {
      const answer = await initialize({ authorization });
      assert.equal(answer.status, 200, authorization);
    }
  });

  test("a wrong scheme, a longer or shorter token, or extra words get 401 with the challenge", async () => {
    for (
      const authorization of [
        `Basic ${TOKEN}`,
        TOKEN,
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(0, -1)}`,
        `Bearer ${TOKEN} ${TOKEN}`,
        `xBearer ${TOKEN}`,
        `Bearer`,
        `Bearer${TOKEN}`,
      ]
    ) {
      const answer = await initialize({ authorization });
      assert.equal(answer.status, 401, authorization);
      assert.equal(answer.headers["www-authenticate"], 'Bearer realm="skillmux"');
      assert.deepEqual(JSON.parse(answer.body), {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Unauthorized: send Authorization: Bearer <token>" },
        id: null,
      });
      assert.ok(!answer.body.includes(TOKEN));
    }
  });

  test("GET and DELETE need the token too (401 before 405)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const refused = await send(guarded.url, { method, headers: { accept: "text/event-stream" } });
      assert.equal(refused.status, 401, method);
      const allowed = await send(guarded.url, {
        method,
        headers: { ...bearer, accept: "text/event-stream" },
      });
      assert.equal(allowed.status, 405, method);
      assert.equal(allowed.headers.allow, "POST, OPTIONS");
    }
  });

  test("the checker itself: trailing blanks are fine; an empty token matches nothing", () => {
    assert.equal(bearerCheck("t0k")("Bearer t0k \t"), true);
    assert.equal(bearerCheck("t0k")("Bearer t0k x"), false);
    assert.equal(bearerCheck("")(undefined), false);
    assert.equal(bearerCheck("")("Basic x"), false);
  });

  test("an empty token is refused up front", async () => {
    await assert.rejects(serveSkills({ token: "" }), {
      name: "TypeError",
      message: "Cannot serve skills: token must not be empty",
    });
  });
});

describe("logging", () => {
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

  test("the log line names the method, path, first JSON-RPC method of a batch and status", async () => {
    const from = lines.length;
    const batch = JSON.stringify([JSON.parse(INITIALIZE)]);
    const answer = await send(guarded.url, {
      path: "/mcp?secret=1",
      headers: { ...json, ...bearer },
      body: batch,
    });
    assert.ok(answer.status < 500, answer.body);
    const refused = await send(guarded.url, { method: "GET", headers: {} });
    assert.equal(refused.status, 401);
    const deadline = Date.now() + 5_000;
    while (lines.length < from + 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const mine = lines.slice(from);
    assert.ok(mine.some((l) => /^POST \/mcp initialize \d{3} \d+\.\dms$/.test(l)), mine.join("\n"));
    assert.ok(mine.some((l) => /^GET \/mcp - 401 \d+\.\dms$/.test(l)), mine.join("\n"));
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

  test("loopback names, with or without a port, any case, are served", async () => {
    const port = new URL(guarded.url).port;
    for (const host of ["localhost", `127.0.0.1:${port}`, "[::1]:80", "LocalHost:1"]) {
      const answer = await initialize({ ...bearer, host });
      assert.equal(answer.status, 200, host);
    }
  });

  test("names that share a prefix or suffix with a loopback name get 403", async () => {
    for (
      const host of [
        "localhost.evil.example",
        "evil.localhost",
        "127.0.0.1.nip.io",
        "x127.0.0.1",
        "localhost:123456",
        "localhost:",
        "[::1]x",
        "rebind.example",
      ]
    ) {
      const answer = await initialize({ ...bearer, host });
      assert.equal(answer.status, 403, host);
      assert.deepEqual(JSON.parse(answer.body), {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Forbidden: host is not allowed" },
        id: null,
      });
    }
  });

  test("the Host check applies only to a server bound to loopback", () => {
    for (const host of ["127.0.0.1", "::1", "localhost"]) assert.equal(isLoopback(host), true);
    for (const host of ["0.0.0.0", "::", "192.168.1.2", "localhost.example"]) {
      assert.equal(isLoopback(host), false, host);
    }
    assert.equal(hostAllowed(undefined), false);
    assert.equal(hostAllowed(""), false);
  });
});
