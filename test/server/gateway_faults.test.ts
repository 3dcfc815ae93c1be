// Upstream faults stay contained: with a healthy server beside them, an upstream whose call hangs
// (an SDK server whose handler never returns), one that answers garbage, one that dies in the middle of a call (server-everything killed) and one
// that starts to demand a sign-in each fail only their own calls (an error result naming the
// server; `skillmux mcp login <name>` for the sign-in), while listing and the healthy server's
// calls answer at once.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { serveGateway } from "../../lib/server/mod.ts";
import type { GatewayServer } from "../../lib/server/gateway_types.ts";
import {
  type SdkServer,
  startEverything,
  startSdkServer,
  type TestServer,
} from "../mcp/_servers.ts";
import { registered, startHangingServer } from "./_gateway.ts";

type Mode = "ok" | "garbage" | "signin";
const modes: Record<string, Mode> = { garbage: "ok", signin: "ok" };
/** A server that behaves until its mode says otherwise. */
const faulty = (name: string) =>
  startSdkServer({
    json: true,
    guard(_req, res) {
      switch (modes[name]) {
        case "garbage":
          res.writeHead(200, { "content-type": "application/json" }).end("<html>not json{{");
          return true;
        case "signin":
          res.writeHead(401, { "www-authenticate": 'Bearer realm="x"' }).end();
          return true;
        default:
          return false;
      }
    },
  });

let good: SdkServer;
let servers: Record<string, { close(): Promise<void> }>;
let everything: TestServer;
let gateway: GatewayServer;
let client: Client;

before(async () => {
  let hang: { url: string; close(): Promise<void> };
  let garbage: SdkServer;
  let signin: SdkServer;
  [good, hang, garbage, signin, everything] = await Promise.all([
    startSdkServer({ json: true }),
    startHangingServer(),
    faulty("garbage"),
    faulty("signin"),
    startEverything("streamableHttp"),
  ]);
  servers = { hang, garbage, signin };
  const reg = await registered([
    { name: "good", url: good.url },
    { name: "hang", url: hang.url },
    { name: "garbage", url: garbage.url },
    { name: "signin", url: signin.url },
    { name: "dies", url: everything.url },
  ]);
  await reg.approve(() => true);
  gateway = await serveGateway({
    registry: reg.registry,
    approvals: reg.approvals,
    connect: { timeoutMs: 1_000, http: { retries: 0 } },
    callTimeoutMs: 1_000,
  });
  for (const name of Object.keys(modes)) modes[name] = name as Mode;
  client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
});
after(async () => {
  await client.close();
  await gateway.close();
  await Promise.all([good, ...Object.values(servers)].map((s) => s.close()));
  await everything.close();
});

// deno-lint-ignore no-explicit-any
const text = (result: any): string => JSON.stringify(result.content);
const timed = async <T>(work: Promise<T>) => {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
};

test("a hanging upstream: its call ends in an error result; listing and other calls do not wait", async () => {
  const hung = timed(client.callTool({ name: "hang__wait", arguments: {} }));
  const listed = await timed(client.listTools());
  assert.ok(listed.value.tools.some((t) => t.name === "hang__wait"));
  assert.ok(listed.ms < 900, `tools/list took ${listed.ms} ms while an upstream hangs`);
  const other = await timed(client.callTool({ name: "good__echo", arguments: { text: "fine" } }));
  assert.match(text(other.value), /fine/);
  assert.ok(other.ms < 900, `good__echo took ${other.ms} ms while an upstream hangs`);
  const { value, ms } = await hung;
  assert.equal(value.isError, true);
  assert.match(text(value), /hang__wait\\" failed on server \\"hang\\"/);
  assert.ok(ms < 5_000, `the hung call took ${ms} ms (the server's call timeout is 1 s)`);
});

test("an upstream answering garbage: an error result, the others unaffected", async () => {
  const bad = await client.callTool({ name: "garbage__echo", arguments: { text: "x" } });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /failed on server \\"garbage\\"/);
  const ok = await client.callTool({ name: "good__add", arguments: { a: 2, b: 3 } });
  assert.match(text(ok), /5/);
});

test("an upstream that dies mid-call: an error result, listing and the others unaffected", async () => {
  const long = client.callTool(
    { name: "dies__trigger-long-running-operation", arguments: { duration: 30, steps: 30 } },
    undefined,
    { onprogress: () => void everything.close(), timeout: 20_000 },
  );
  const { value, ms } = await timed(long);
  assert.equal(value.isError, true);
  assert.match(text(value), /failed on server \\"dies\\"/);
  assert.ok(ms < 10_000, `the dead server's call took ${ms} ms`);
  assert.ok((await client.listTools()).tools.some((t) => t.name === "good__echo"));
  assert.match(
    text(await client.callTool({ name: "good__echo", arguments: { text: "on" } })),
    /on/,
  );
});

test("an upstream that needs sign-in: the result points at skillmux mcp login <name>", async () => {
  const result = await client.callTool({ name: "signin__echo", arguments: { text: "x" } });
  assert.equal(result.isError, true);
  assert.match(text(result), /needs sign-in \(OAuth\).*run skillmux mcp login signin/);
});
