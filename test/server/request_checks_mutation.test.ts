// The skills server's request checks at their edges, written to kill the mutants that
// `npm run mutate -- server` found alive: Host and Origin look-alikes, the bearer header's
// spellings, the preflight's headers, the body size limit at exactly 4 MiB, the error bodies.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { bearerCheck, hostAllowed, isLoopback, originAllowed } from "../../lib/server/_http.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { INITIALIZE } from "./_helpers.ts";

const TOKEN = "tok-7d1c-request-checks";
const MAX_BODY = 4 * 1024 * 1024;
const lines: string[] = [];
let guarded: SkillsServer;
let open: SkillsServer;

before(async () => {
  guarded = await serveSkills({ token: TOKEN, log: (line) => lines.push(line) });
  open = await serveSkills({ allowedOrigins: ["https://App.example/"] });
});

after(async () => {
  await guarded?.close();
  await open?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request (unlike fetch, it may set any `Host`), with a 10 s deadline. */
function send(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const target = new URL(url);
  return new Promise<Answer>((resolve, reject) => {
    const req = request({
      host: target.hostname,
      port: target.port,
      path: options.path ?? target.pathname,
      method: options.method ?? "POST",
      headers: options.headers ?? {},
      timeout: 10_000,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${options.method} ${url}: no answer in 10 s`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

const json = { "content-type": "application/json", accept: "application/json" };
const auth = { authorization: `Bearer ${TOKEN}` };

/** POST initialize to the guarded server with these extra headers. */
const initialize = (headers: Record<string, string>) =>
  send(guarded.url, { headers: { ...json, ...headers }, body: INITIALIZE });

describe("Host: loopback names only, matched whole", () => {
  test("loopback names, with or without a port, any case, are served", async () => {
    const port = new URL(guarded.url).port;
    for (const host of ["localhost", `127.0.0.1:${port}`, "[::1]:80", "LocalHost:1"]) {
      const answer = await initialize({ ...auth, host });
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
      const answer = await initialize({ ...auth, host });
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

describe("Origin: loopback by default, or the allow-list, matched whole", () => {
  test("the loopback default accepts http and https loopback origins, any port or none", () => {
    for (
      const origin of [
        "http://localhost",
        "https://127.0.0.1:8443",
        "http://[::1]:5173",
        "HTTP://LOCALHOST:1",
      ]
    ) assert.equal(originAllowed(origin, undefined), true, origin);
    for (
      const origin of [
        "http://localhost.evil.example",
        "http://evil.localhost",
        "ftp://localhost",
        "http://localhost:123456",
        "http://127.0.0.1/app",
        "https://evil.example/?http://localhost",
        "https://evil.example#http://localhost:80",
        "null",
      ]
    ) assert.equal(originAllowed(origin, undefined), false, origin);
  });

  test("an allow-list entry matches regardless of case and a trailing slash, and only itself", async () => {
    for (const origin of ["https://app.example", "https://APP.example/"]) {
      const answer = await send(open.url, { headers: { ...json, origin }, body: INITIALIZE });
      assert.equal(answer.status, 200, origin);
      assert.equal(answer.headers["access-control-allow-origin"], origin);
      assert.equal(answer.headers.vary, "Origin");
    }
    for (const origin of ["https://app.example.evil", "http://app.example", "https://app.exampl"]) {
      const answer = await send(open.url, { headers: { ...json, origin }, body: INITIALIZE });
      assert.equal(answer.status, 403, origin);
      assert.match(JSON.parse(answer.body).error.message, /^Forbidden: origin .* is not allowed$/);
    }
  });

  test('"*" allows any origin; no Origin (not a browser) is always allowed', () => {
    assert.equal(originAllowed("https://anything.example", "*"), true);
    assert.equal(originAllowed(undefined, []), true);
    assert.equal(originAllowed("https://a.example", []), false);
  });

  test("without an Origin no CORS header is sent", async () => {
    const answer = await send(open.url, { headers: json, body: INITIALIZE });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers["access-control-allow-origin"], undefined);
    assert.equal(answer.headers.vary, undefined);
  });
});

describe("bearer token", () => {
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
        headers: { ...auth, accept: "text/event-stream" },
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

describe("preflight", () => {
  test("Mcp-Param-* headers are allowed by name, others not; methods and max age", async () => {
    const origin = "http://localhost:5173";
    const answer = await send(guarded.url, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers":
          "content-type, Mcp-Param-Region ,x-evil, mcp-param-, x-mcp-param-a, Mcp-Param-A B",
      },
    });
    assert.equal(answer.status, 204);
    const allow = String(answer.headers["access-control-allow-headers"]).split(", ");
    assert.ok(allow.includes("Mcp-Param-Region"), allow.join());
    assert.ok(allow.includes("Mcp-Name") && allow.includes("Mcp-Method"), allow.join());
    for (const refused of ["x-evil", "mcp-param-", "x-mcp-param-a", "Mcp-Param-A B"]) {
      assert.ok(!allow.includes(refused), `${refused} in ${allow.join()}`);
    }
    assert.equal(answer.headers["access-control-allow-methods"], "GET, POST, DELETE, OPTIONS");
    assert.equal(answer.headers["access-control-max-age"], "600");
    assert.equal(answer.headers["access-control-allow-origin"], origin);
    assert.equal(answer.body, "");
  });

  test("a preflight without requested headers allows the fixed list only", async () => {
    const answer = await send(guarded.url, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" },
    });
    assert.equal(answer.status, 204);
    const allow = String(answer.headers["access-control-allow-headers"]);
    assert.match(allow, /^Content-Type, .*Mcp-Name$/);
  });
});

describe("paths, bodies and errors", () => {
  test("a query string does not change the path; other paths are 404 with a JSON-RPC body", async () => {
    const withQuery = await send(guarded.url, {
      path: "/mcp?x=1",
      headers: { ...json, ...auth },
      body: INITIALIZE,
    });
    assert.equal(withQuery.status, 200);
    const other = await send(guarded.url, { path: "/mcpx", headers: { ...json, ...auth } });
    assert.equal(other.status, 404);
    assert.match(String(other.headers["content-type"]), /^application\/json/);
    assert.deepEqual(JSON.parse(other.body), {
      jsonrpc: "2.0",
      error: { code: -32000, message: "Not found: the MCP endpoint is /mcp" },
      id: null,
    });
  });

  test("a body of exactly 4 MiB is read whole; one byte more is 413", async () => {
    // Padding first, so a body cut short anywhere is not JSON.
    const padded = " ".repeat(MAX_BODY - INITIALIZE.length) + INITIALIZE;
    assert.equal(Buffer.byteLength(padded), MAX_BODY);
    const fits = await send(guarded.url, { headers: { ...json, ...auth }, body: padded });
    assert.equal(fits.status, 200);
    assert.equal(JSON.parse(fits.body).result.serverInfo.name, "skillmux");
    const over = await send(guarded.url, { headers: { ...json, ...auth }, body: `${padded} ` });
    assert.equal(over.status, 413);
    assert.deepEqual(JSON.parse(over.body).error, {
      code: -32000,
      message: "Request body too large",
    });
  });

  test("a body that is not JSON is a parse error (-32700)", async () => {
    const answer = await send(guarded.url, { headers: { ...json, ...auth }, body: "{nope" });
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.body), {
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error" },
      id: null,
    });
  });

  test("widening a JSON-only Accept leaves the other headers alone, whatever their order", async () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const answer = await send(open.url, {
      headers: {
        "mcp-protocol-version": "2025-06-18",
        "content-type": "application/json",
        accept: "application/json",
      },
      body: list,
    });
    assert.equal(answer.status, 200, answer.body);
    assert.match(String(answer.headers["content-type"]), /^application\/json/);
    const names = JSON.parse(answer.body).result.tools.map((t: { name: string }) => t.name);
    assert.ok(names.includes("search_skills"), names.join());
  });

  test('a header whose value is "accept" is not taken for the Accept header', async () => {
    const answer = await send(open.url, {
      headers: {
        "x-note": "Accept",
        "content-type": "application/json",
        accept: "application/json",
      },
      body: INITIALIZE,
    });
    assert.equal(answer.status, 200, answer.body);
    assert.equal(JSON.parse(answer.body).result.serverInfo.name, "skillmux");
  });

  test("a POST without Accept is answered as JSON", async () => {
    const answer = await send(open.url, {
      headers: { "content-type": "application/json" },
      body: INITIALIZE,
    });
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers["content-type"]), /^application\/json/);
    assert.equal(JSON.parse(answer.body).result.serverInfo.name, "skillmux");
  });

  test("the log line names the method, path, first JSON-RPC method of a batch and status", async () => {
    const from = lines.length;
    const batch = JSON.stringify([JSON.parse(INITIALIZE)]);
    const answer = await send(guarded.url, {
      path: "/mcp?secret=1",
      headers: { ...json, ...auth },
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
