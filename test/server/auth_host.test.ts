// The skills server's edge, over real HTTP: the bearer token guards every method (POST, GET,
// DELETE and the rest; stateless and with sessions; the 2025 SDK path and the 2026-07-28 path
// answered directly), and the Host check (DNS rebinding) matches host[:port] exactly: names that
// merely begin or end like an allowed one are refused.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { serveSkills } from "../../lib/server/mod.ts";
import type { SkillsServer } from "../../lib/server/types.ts";
import { INITIALIZE, post } from "./_helpers.ts";

const TOKEN = "tok-7d1e-auth-host-secret";
const bearer = { authorization: `Bearer ${TOKEN}` };

/** One raw request (any method, any Host); an event stream is cut after its headers. */
function send(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method,
      headers: {
        accept: "application/json, text/event-stream",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      timeout: 5_000,
    }, (res) => {
      const done = (text: string) =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      if (String(res.headers["content-type"] ?? "").includes("text/event-stream")) {
        res.destroy();
        return done("");
      }
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => done(text));
      res.on("error", () => done(text));
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on("error", reject);
    req.end(body);
  });
}

const MODERN_DISCOVER = JSON.stringify({
  jsonrpc: "2.0",
  id: 7,
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
const MODERN = { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" };

let stateless: SkillsServer;
let sessions: SkillsServer;
let open: SkillsServer;

before(async () => {
  [stateless, sessions, open] = await Promise.all([
    serveSkills({ token: TOKEN }),
    serveSkills({ token: TOKEN, sessions: true }),
    serveSkills({}),
  ]);
});
after(async () => {
  await Promise.all([stateless?.close(), sessions?.close(), open?.close()]);
});

/** A new session on the `sessions` server, opened with the token. */
async function openSession(): Promise<string> {
  const response = await post(sessions.url, bearer);
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id");
  assert.ok(id, "a session id");
  return id;
}

describe("the bearer token guards every method", () => {
  for (const mode of ["stateless", "sessions"] as const) {
    test(`${mode}: GET, DELETE, POST, PUT, PATCH and HEAD without the token, or a wrong one, get 401`, async () => {
      const server = mode === "stateless" ? stateless : sessions;
      for (const method of ["GET", "DELETE", "POST", "PUT", "PATCH", "HEAD"]) {
        const body = method === "POST" || method === "PUT" || method === "PATCH"
          ? INITIALIZE
          : undefined;
        const auths: Record<string, string>[] = [
          {},
          { authorization: "Bearer wrong-token" },
          { authorization: TOKEN },
        ];
        for (const auth of auths) {
          const answer = await send(server.url, method, auth, body);
          assert.equal(answer.status, 401, `${method} with ${JSON.stringify(auth)}`);
          assert.match(String(answer.headers["www-authenticate"] ?? ""), /^Bearer/);
        }
      }
    });

    test(`${mode}: the 2026-07-28 path (answered without the SDK) needs the token too`, async () => {
      const server = mode === "stateless" ? stateless : sessions;
      const refused = await send(server.url, "POST", MODERN, MODERN_DISCOVER);
      assert.equal(refused.status, 401);
      const allowed = await send(server.url, "POST", { ...MODERN, ...bearer }, MODERN_DISCOVER);
      assert.equal(allowed.status, 200, allowed.text);
      assert.match(allowed.text, /supportedVersions/);
    });
  }

  test("stateless: with the token, GET and DELETE reach the server (405: no sessions here)", async () => {
    assert.equal((await send(stateless.url, "GET", bearer)).status, 405);
    assert.equal((await send(stateless.url, "DELETE", bearer)).status, 405);
  });

  test("sessions: a GET stream and a DELETE on a live session need the token", async () => {
    const id = await openSession();
    const session = { "mcp-session-id": id };
    for (const method of ["GET", "DELETE"]) {
      assert.equal((await send(sessions.url, method, session)).status, 401, method);
      const wrong = { ...session, authorization: "Bearer wrong-token" };
      assert.equal((await send(sessions.url, method, wrong)).status, 401, method);
    }
    // The refused DELETE did not end the session: it still answers with the token.
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "resources/list" });
    const alive = await send(sessions.url, "POST", { ...session, ...bearer }, list);
    assert.equal(alive.status, 200, alive.text);
    const stream = await send(sessions.url, "GET", { ...session, ...bearer });
    assert.equal(stream.status, 200);
    assert.match(String(stream.headers["content-type"]), /text\/event-stream/);
    assert.equal((await send(sessions.url, "DELETE", { ...session, ...bearer })).status, 200);
    const gone = await send(sessions.url, "POST", { ...session, ...bearer }, list);
    assert.equal(gone.status, 404, "the authorised DELETE ended the session");
  });
});

describe("the Host check is an exact match of host[:port]", () => {
  const refused = [
    "localhost.evil.example",
    "evil-localhost",
    "evillocalhost",
    "localhostevil",
    "127.0.0.1.nip.io",
    "127.0.0.1.evil.example",
    "evil127.0.0.1",
    "localhost:3737.evil",
    "localhost:3737:80",
    "localhost:",
    "localhost:port",
    "127.0.0.1@evil.example",
    "[::1].evil.example",
    "[::1]evil",
    "127.0.0.2",
    "0.0.0.0",
    "rebind.example",
  ];
  for (const host of refused) {
    test(`Host: ${host} is refused with 403, token or not`, async () => {
      const cases: Array<[SkillsServer, Record<string, string>]> = [[open, {}], [
        stateless,
        bearer,
      ]];
      for (const [server, auth] of cases) {
        const answer = await send(server.url, "POST", { host, ...auth }, INITIALIZE);
        assert.equal(answer.status, 403, `${host} on ${server.url}: ${answer.text}`);
        assert.match(answer.text, /host is not allowed/);
      }
    });
  }

  test("loopback names, with or without a port, in any case, are accepted", async () => {
    const port = new URL(open.url).port;
    const allowed = [
      "localhost",
      `localhost:${port}`,
      "LOCALHOST:1234",
      "127.0.0.1",
      `127.0.0.1:${port}`,
      "[::1]",
      `[::1]:${port}`,
    ];
    for (const host of allowed) {
      const answer = await send(open.url, "POST", { host }, INITIALIZE);
      assert.equal(answer.status, 200, `${host}: ${answer.text}`);
      const guarded = await send(stateless.url, "POST", { host, ...bearer }, INITIALIZE);
      assert.equal(guarded.status, 200, `${host} with the token: ${guarded.text}`);
    }
  });
});
