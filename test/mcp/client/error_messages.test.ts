// Connection errors name the request that failed with the URL's path, and a server with no MCP
// endpoint is reported by the POST's answer (once "HTTP 404", its body), not by the legacy
// HTTP+SSE GET tried after it.
import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { listenLocal } from "../_servers.ts";

test("a 404 names the POST, its URL with the path, and the POST's body, once", async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(404, { "content-type": "text/plain" })
      .end(req.method === "POST" ? "no endpoint for POST" : "the GET body");
  });
  const listening = await listenLocal(server);
  const url = `http://127.0.0.1:${listening.port}/mcp`;
  try {
    const error = await connect({ name: "lost", url }, { http: { retries: 0 } })
      .then(() => undefined, (e: Error) => e);
    assert.ok(error instanceof Error);
    assert.equal(error.name, "HttpError");
    assert.equal(
      error.message,
      `lost: POST ${url} answered HTTP 404 Not Found: no endpoint for POST`,
    );
    // Counted as "HTTP 404": the random port of the URL may hold the digits 404 too.
    assert.equal(error.message.match(/HTTP 404/g)?.length, 1);
  } finally {
    await listening.close();
  }
});

test("a network failure names the URL with its path", async () => {
  const server = http.createServer();
  const listening = await listenLocal(server);
  const url = `http://127.0.0.1:${listening.port}/deep/mcp`;
  await listening.close(); // nothing listens there now
  const error = await connect({ name: "gone", url }, { http: { retries: 0 } })
    .then(() => undefined, (e: Error) => e);
  assert.ok(error instanceof Error);
  assert.equal(error.name, "NetworkError");
  assert.ok(error.message.startsWith(`gone: POST ${url} failed`), error.message);
});
