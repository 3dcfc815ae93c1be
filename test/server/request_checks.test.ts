// What the skills server reads of a request: the one MCP path (a query string aside), a body of
// at most 4 MiB, JSON or a parse error, any Accept (widened to JSON when it lists JSON only), and
// the JSON-RPC error bodies. Real servers on 127.0.0.1, raw HTTP and fetch.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { INITIALIZE, post, send } from "./_helpers.ts";

const TOKEN = "tok-9c4a-request-checks";
const MAX_BODY = 4 * 1024 * 1024;
let guarded: SkillsServer;
let open: SkillsServer;

before(async () => {
  guarded = await serveSkills({ token: TOKEN });
  open = await serveSkills();
});

after(async () => {
  await guarded?.close();
  await open?.close();
});

const json = { "content-type": "application/json", accept: "application/json" };
const auth = { authorization: `Bearer ${TOKEN}` };

/** `initialize`, padded with trailing spaces (still valid JSON) to `bytes` bytes. */
const trailingPadded = (bytes: number) => INITIALIZE + " ".repeat(bytes - INITIALIZE.length);

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

  test("without a token too: one byte over 4 MiB (padded at the end) is 413, a JSON-RPC error", async () => {
    const response = await post(open.url, {}, trailingPadded(MAX_BODY + 1));
    assert.equal(response.status, 413);
    const body = await response.json();
    assert.equal(body.jsonrpc, "2.0");
    assert.match(body.error.message, /too large/i);
  });

  test("without a token too: a body of exactly 4 MiB (padded at the end) is served", async () => {
    const response = await post(open.url, {}, trailingPadded(MAX_BODY));
    assert.equal(response.status, 200, await response.clone().text());
    const body = await response.json();
    assert.equal(body.result.serverInfo.name.length > 0, true);
  });
});
