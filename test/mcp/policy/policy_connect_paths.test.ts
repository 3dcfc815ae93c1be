// The strict URL policy's connect-time DNS check on every HTTP path: Streamable HTTP (2025,
// initialize), the modern stateless path (2026-07-28), legacy HTTP+SSE (forced, and reached by
// fallback), the GET notification stream and skill downloads. Each test gives the resolver through
// the public options (`urlPolicy.lookup`) and a fetch that pins the public name to a real server on
// 127.0.0.1 (what DNS and TLS would do): a public answer connects, a private one is refused
// before the server sees a single request. checkConnectTarget itself: policy_connect.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { prepareServer } from "../../../lib/mcp/policy/prepare.ts";
import { createStreamableHttpTransport } from "../../../lib/mcp/transport/streamable_http.ts";
import type { HostLookup, ResolvedAddress } from "../../../lib/mcp/policy/url.ts";
import { serveSkills } from "../../../lib/server/mod.ts";
import { fetchRegistryIndex } from "../../../lib/install/mod.ts";
import { legacy, startFaultServer, status } from "../_fault_server.ts";
import { startSdkServer } from "../_servers.ts";
import { startRegistry } from "../../install/_registry.ts";

const PUBLIC: ResolvedAddress[] = [{ address: "93.184.215.14", family: 4 }];
const PRIVATE: ResolvedAddress[] = [{ address: "93.184.215.14", family: 4 }, {
  address: "10.0.0.7",
  family: 4,
}];

/** A resolver that answers `addresses` and records the names it was asked for. */
function resolver(addresses: ResolvedAddress[]): { lookup: HostLookup; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    lookup: (host) => {
      asked.push(host);
      return Promise.resolve(addresses);
    },
  };
}

/** A fetch that sends `https://<host>/…` to `origin` (a real local server) and counts calls. */
function pinned(origin: string): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  const target = new URL(origin);
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(url.href);
    url.protocol = target.protocol;
    url.host = target.host;
    if (input instanceof Request) return globalThis.fetch(new Request(url, input), init);
    return globalThis.fetch(url, init);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

interface Served {
  origin: string;
  /** Requests the real server received. */
  seen(): number;
  close(): Promise<void>;
}

const transports: Array<{
  name: string;
  host: string;
  start(): Promise<Served>;
  connectOptions?: { protocolVersion?: string };
  transport?: "sse";
  kind: string;
}> = [
  {
    name: "Streamable HTTP (2025, initialize)",
    host: "streamable.example.com",
    kind: "streamable-http",
    connectOptions: { protocolVersion: "2025-11-25" },
    async start() {
      const server = await startSdkServer({ json: true });
      return {
        origin: new URL(server.url).origin,
        seen: () => server.requests.length,
        close: () => server.close(),
      };
    },
  },
  {
    name: "the modern stateless path (2026-07-28)",
    host: "modern.example.com",
    kind: "streamable-http",
    async start() {
      let seen = 0;
      const server = await serveSkills({ log: () => void seen++ });
      return { origin: new URL(server.url).origin, seen: () => seen, close: () => server.close() };
    },
  },
  {
    name: "legacy HTTP+SSE (forced)",
    host: "sse.example.com",
    kind: "sse",
    transport: "sse",
    async start() {
      const fault = await startFaultServer();
      fault.fallback = legacy({ reply: toolsReply });
      return { origin: fault.origin, seen: () => fault.received.length, close: fault.close };
    },
  },
  {
    name: "legacy HTTP+SSE (by fallback after a 405)",
    host: "fallback.example.com",
    kind: "sse",
    async start() {
      const fault = await startFaultServer();
      const serve = legacy({ reply: toolsReply });
      fault.fallback = (exchange) =>
        exchange.req.method === "POST" && exchange.received.path === "/mcp"
          ? status(405)(exchange)
          : serve(exchange);
      return { origin: fault.origin, seen: () => fault.received.length, close: fault.close };
    },
  },
];

// deno-lint-ignore no-explicit-any
function toolsReply(rpc: any) {
  if (rpc.method !== "tools/list") return undefined;
  return [{
    event: "message",
    data: { jsonrpc: "2.0", id: rpc.id, result: { tools: [{ name: "t", inputSchema: {} }] } },
  }];
}

describe("strict mode: every transport resolves the host before it connects", () => {
  for (const t of transports) {
    test(`${t.name}: the resolver is asked for the host; a public answer connects`, async () => {
      const served = await t.start();
      const dns = resolver(PUBLIC);
      const pin = pinned(served.origin);
      try {
        const client = await connect(
          { name: "srv", url: `https://${t.host}/mcp`, transport: t.transport },
          {
            ...t.connectOptions,
            urlPolicy: { mode: "strict", lookup: dns.lookup },
            http: { fetch: pin.fetch, retries: 0 },
            timeoutMs: 5_000,
          },
        );
        try {
          assert.equal(client.transport, t.kind);
          assert.ok((await client.listTools()).length > 0);
        } finally {
          await client.close();
        }
        assert.ok(dns.asked.length >= 1, "the resolver was called");
        assert.deepEqual(new Set(dns.asked), new Set([t.host]));
        assert.ok(served.seen() > 0);
      } finally {
        await served.close();
      }
    });

    test(`${t.name}: a private answer is refused before any request`, async () => {
      const served = await t.start();
      const dns = resolver(PRIVATE);
      const pin = pinned(served.origin);
      try {
        const error = await connect(
          { name: "srv", url: `https://blocked-${t.host}/mcp`, transport: t.transport },
          {
            ...t.connectOptions,
            urlPolicy: { mode: "strict", lookup: dns.lookup },
            http: { fetch: pin.fetch, retries: 0 },
            timeoutMs: 5_000,
          },
        ).then(() => undefined, (e: Error) => e);
        assert.equal(error?.name, "PolicyError", String(error));
        assert.match(error!.message, /resolves to 10\.0\.0\.7/);
        assert.deepEqual(dns.asked, [`blocked-${t.host}`]);
        assert.deepEqual(pin.calls, [], "nothing was fetched");
        assert.equal(served.seen(), 0, "the server received nothing");
      } finally {
        await served.close();
      }
    });
  }
});

describe("strict mode: the GET notification stream resolves the host too", () => {
  test("a transport whose first act is listen() checks the host before the GET", async () => {
    const fault = await startFaultServer();
    const pin = pinned(fault.origin);
    const transport = createStreamableHttpTransport(
      prepareServer({ name: "srv", url: "https://listen.example.com/mcp" }, {
        env: {},
        urlPolicy: { mode: "strict", lookup: resolver(PRIVATE).lookup },
      }),
      { fetch: pin.fetch },
    );
    try {
      assert.ok(transport.listen, "the Streamable HTTP transport can listen");
      const error = await transport.listen(AbortSignal.timeout(5_000))
        .then(() => undefined, (e: Error) => e);
      assert.equal(error?.name, "PolicyError", String(error));
      assert.deepEqual(pin.calls, []);
      assert.equal(fault.received.length, 0);
    } finally {
      await transport.close();
      await fault.close();
    }
  });
});

describe("strict mode: skill downloads resolve the host too", () => {
  test("a public answer downloads the index; a private one is refused before any request", async () => {
    const registry = await startRegistry();
    registry.files.set("index.json", JSON.stringify({ skills: [] }));
    const pin = pinned(registry.url);
    try {
      const good = resolver(PUBLIC);
      await fetchRegistryIndex({
        registry: "https://registry.example.com/",
        urlPolicy: { mode: "strict", lookup: good.lookup },
        fetch: pin.fetch,
        retries: 0,
      });
      assert.deepEqual(good.asked, ["registry.example.com"]);
      assert.deepEqual(registry.requests, ["index.json"]);

      const bad = resolver(PRIVATE);
      const error = await fetchRegistryIndex({
        registry: "https://evil.example.com/",
        urlPolicy: { mode: "strict", lookup: bad.lookup },
        fetch: pin.fetch,
        retries: 0,
      }).then(() => undefined, (e: Error & { code?: string }) => e);
      assert.equal(error?.code, "policy", String(error));
      assert.deepEqual(bad.asked, ["evil.example.com"]);
      assert.deepEqual(registry.requests, ["index.json"], "no request after the refusal");
    } finally {
      await registry.close();
    }
  });
});
