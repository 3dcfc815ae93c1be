// The skills server reads at most 4 MiB of a request body: one byte more is refused with 413 and
// a JSON-RPC error, exactly 4 MiB is served. A real server on 127.0.0.1.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { INITIALIZE, post } from "./_helpers.ts";

const LIMIT = 4 * 1024 * 1024;
let server: SkillsServer;
before(async () => {
  server = await serveSkills();
});
after(() => server.close());

/** `initialize`, padded with trailing spaces (still valid JSON) to `bytes` bytes. */
const padded = (bytes: number) => INITIALIZE + " ".repeat(bytes - INITIALIZE.length);

test("a body one byte over 4 MiB is refused with 413 and a JSON-RPC error", async () => {
  const response = await post(server.url, {}, padded(LIMIT + 1));
  assert.equal(response.status, 413);
  const body = await response.json();
  assert.equal(body.jsonrpc, "2.0");
  assert.match(body.error.message, /too large/i);
});

test("a body of exactly 4 MiB is served", async () => {
  const response = await post(server.url, {}, padded(LIMIT));
  assert.equal(response.status, 200, await response.clone().text());
  const body = await response.json();
  assert.equal(body.result.serverInfo.name.length > 0, true);
});
