// The loopback relay of `npm start` (scripts/_relay.ts): an SDK server that sends no CORS
// headers is reached through it (stateful, so session ids, SSE answers and DELETE travel both
// ways), and every request without the token, from another Origin, with another Host or to a
// route nobody registered is refused before the target sees anything.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import { connect } from "../lib/mcp/client/client.ts";
import { type Relay, startRelay, TOKEN_HEADER } from "../scripts/_relay.ts";
import { type SdkServer, startSdkServer } from "./mcp/_servers.ts";
import { deadUrl } from "./_closed_port.ts";

const ORIGIN = "http://127.0.0.1:5173";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request (node:http, so that Host and Origin are exactly what the test says). */
function send(
  url: string,
  headers: Record<string, string>,
  method = "POST",
  body = "",
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
});

describe("npm start's relay", () => {
  let target: SdkServer;
  let relay: Relay;
  let route: string;
  let good: Record<string, string>;

  before(async () => {
    target = await startSdkServer({ stateful: true });
    relay = await startRelay({ origins: [ORIGIN] });
    good = {
      host: new URL(relay.url).host,
      origin: ORIGIN,
      [TOKEN_HEADER]: relay.token,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const added = await send(
      `${relay.url}/targets`,
      good,
      "POST",
      JSON.stringify({ url: target.url }),
    );
    assert.equal(added.status, 201, added.body);
    assert.equal(added.headers["access-control-allow-origin"], ORIGIN);
    route = JSON.parse(added.body).url;
  });
  after(async () => {
    await relay.close();
    await target.close();
  });

  test("the target sends no CORS headers itself", async () => {
    const direct = await send(target.url, { origin: ORIGIN }, "OPTIONS");
    assert.equal(direct.headers["access-control-allow-origin"], undefined);
  });

  test("an added server is reached: list tools, call one, end the session", async () => {
    const relayed: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set(TOKEN_HEADER, relay.token);
      headers.set("origin", ORIGIN);
      return fetch(input, { ...init, headers });
    };
    const before = target.requests.length;
    const client = await connect({ name: "no-cors", url: route }, { http: { fetch: relayed } });
    const tools = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === "echo"), JSON.stringify(tools));
    const echoed = await client.callTool("echo", { text: "via relay" });
    assert.deepEqual(echoed.content, [{ type: "text", text: "via relay" }]);
    await client.close();
    const seen = target.requests.slice(before);
    assert.ok(seen.some((r) => r.rpc === "tools/call" && r.sessionId), "session id passed on");
    assert.ok(seen.some((r) => r.method === "DELETE" && r.sessionId), "DELETE passed on");
  });

  test("a preflight from the playground gets CORS for it alone, and no token is needed", async () => {
    const preflight = await send(route, { host: good.host, origin: ORIGIN }, "OPTIONS");
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers["access-control-allow-origin"], ORIGIN);
    assert.match(String(preflight.headers["access-control-allow-headers"]), /mcp-session-id/);
    assert.match(String(preflight.headers["access-control-allow-methods"]), /DELETE/);
  });

  const refusals: [
    string,
    (h: Record<string, string>) => Record<string, string>,
    number,
    RegExp,
  ][] = [
    ["no token", ({ [TOKEN_HEADER]: _, ...h }) => h, 401, /wrong x-skillmux-relay-token/],
    ["a wrong token", (h) => ({ ...h, [TOKEN_HEADER]: "x".repeat(43) }), 401, /wrong x-skillmux/],
    ["no Origin", ({ origin: _, ...h }) => h, 403, /Origin must be.*got none/],
    ["another Origin", (h) => ({ ...h, origin: "http://evil.example" }), 403, /got http:\/\/evil/],
    [
      "the Origin on another port",
      (h) => ({ ...h, origin: "http://127.0.0.1:5174" }),
      403,
      /Origin/,
    ],
    [
      "a rebound Host",
      (h) => ({ ...h, host: `evil.example:${new URL(relay.url).port}` }),
      421,
      /Host must be/,
    ],
    [
      "localhost as Host",
      (h) => ({ ...h, host: `localhost:${new URL(relay.url).port}` }),
      421,
      /Host/,
    ],
  ];
  for (const [what, change, status, message] of refusals) {
    test(`${what}: refused with ${status}, the target receives nothing`, async () => {
      const before = target.requests.length;
      const answer = await send(route, change(good), "POST", INIT);
      assert.equal(answer.status, status, answer.body);
      assert.match(JSON.parse(answer.body).error, message);
      // Registering a new target is refused the same way.
      const add = await send(
        `${relay.url}/targets`,
        change(good),
        "POST",
        `{"url":"${target.url}"}`,
      );
      assert.equal(add.status, status, add.body);
      assert.equal(target.requests.length, before, "the target saw a refused request");
    });
  }

  test("a route nobody added is refused with 403; so is a preflight from elsewhere", async () => {
    const before = target.requests.length;
    for (const path of ["/t/unknown", "/", `/${target.url}`]) {
      const answer = await send(`${relay.url}${path}`, good, "POST", INIT);
      assert.equal(answer.status, 403, `${path}: ${answer.body}`);
      assert.match(JSON.parse(answer.body).error, /not a server the page added/);
    }
    const preflight = await send(
      route,
      { host: good.host, origin: "http://evil.example" },
      "OPTIONS",
    );
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers["access-control-allow-origin"], undefined);
    assert.equal(target.requests.length, before);
  });

  test("registering anything but an http(s) URL is refused with 400", async () => {
    for (const body of ['{"url":"file:///etc/passwd"}', '{"command":"sh"}', "nope"]) {
      const answer = await send(`${relay.url}/targets`, good, "POST", body);
      assert.equal(answer.status, 400, body);
      assert.match(JSON.parse(answer.body).error, /expects \{"url"/);
    }
  });

  test("a dead server answers 502 naming the relay; a redirect is not followed", async () => {
    const register = async (url: string) => {
      const added = await send(`${relay.url}/targets`, good, "POST", JSON.stringify({ url }));
      return JSON.parse(added.body).url as string;
    };
    const dead = await send(await register(await deadUrl()), good, "POST", INIT);
    assert.equal(dead.status, 502, dead.body);
    assert.match(JSON.parse(dead.body).error, /^relay: /);
    assert.equal(dead.headers["access-control-allow-origin"], ORIGIN, "the page can read why");
    // A target that redirects to the SDK server: the relay passes the 307 on, without Location.
    const redirect = http.createServer((_, res) =>
      res.writeHead(307, { location: target.url }).end()
    );
    await new Promise<void>((done) => redirect.listen(0, "127.0.0.1", done));
    try {
      const before = target.requests.length;
      const port = (redirect.address() as { port: number }).port;
      const answer = await send(await register(`http://127.0.0.1:${port}/mcp`), good, "POST", INIT);
      assert.equal(answer.status, 307);
      assert.equal(answer.headers.location, undefined);
      assert.equal(target.requests.length, before);
    } finally {
      redirect.close();
    }
  });
});
