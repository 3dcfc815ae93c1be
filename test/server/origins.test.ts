// Which web pages may call the skills server: the Origin check (loopback by default, or an
// allow-list matched whole, any case, trailing slash or not), the CORS headers of an allowed
// origin and the preflight (methods, max age, the fixed and Mcp-Param-* headers). Real servers on
// 127.0.0.1, with fetch and raw HTTP.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { originAllowed } from "../../lib/server/_http.ts";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { INITIALIZE, post, send } from "./_helpers.ts";

const TOKEN = "tok-5b2e-origins";
let guarded: SkillsServer;
let open: SkillsServer;

before(async () => {
  guarded = await serveSkills({ token: TOKEN });
  // An allow-list entry spelled in mixed case with a trailing slash: matching ignores both.
  open = await serveSkills({ allowedOrigins: ["https://App.example/"] });
});

after(async () => {
  await guarded?.close();
  await open?.close();
});

const bearer = { authorization: `Bearer ${TOKEN}` };
const json = { "content-type": "application/json", accept: "application/json" };

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
