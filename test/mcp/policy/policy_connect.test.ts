// checkConnectTarget: the connect-time DNS check of the strict URL policy (§6.D item 32), with a
// fake resolver and the system one: what is resolved, what is refused, and the exact errors.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  isMcpError,
  type NetworkError,
  type PolicyError,
} from "../../../lib/mcp/protocol/errors.ts";
import {
  checkConnectTarget,
  type ResolvedAddress,
} from "../../../lib/mcp/policy/connect_target.ts";

function fakeLookup(addresses: ResolvedAddress[] | Error) {
  const calls: string[] = [];
  const lookup = (host: string) => {
    calls.push(host);
    return addresses instanceof Error ? Promise.reject(addresses) : Promise.resolve(addresses);
  };
  return { calls, lookup };
}

const strict = { mode: "strict" } as const;

test("default mode resolves nothing", async () => {
  const { calls, lookup } = fakeLookup([{ address: "127.0.0.1", family: 4 }]);
  await checkConnectTarget(new URL("https://rebind.test/mcp"), {}, { lookup });
  await checkConnectTarget(new URL("http://localhost:3000/mcp"), { mode: "default" }, { lookup });
  assert.deepEqual(calls, []);
});

test("strict: a name resolving to loopback is refused at connect time (rebinding)", async () => {
  const { calls, lookup } = fakeLookup([{ address: "127.0.0.1", family: 4 }]);
  const error = await checkConnectTarget(new URL("https://rebind.test/mcp"), strict, {
    lookup,
    server: "srv",
  })
    .then(() => undefined, (e: PolicyError) => e);
  assert.ok(isMcpError(error, "PolicyError"), String(error));
  assert.equal(error.field, "url");
  assert.equal(error.server, "srv");
  assert.match(error.message, /resolves to 127\.0\.0\.1.*loopback/);
  assert.deepEqual(calls, ["rebind.test"]);
});

test("strict: refused when any one answer is blocked", async () => {
  for (
    const bad of [
      "10.0.0.5",
      "169.254.169.254",
      "::1",
      "::ffff:10.0.0.1",
      "fe80::1%eth0",
      "100.64.1.1",
    ]
  ) {
    const { lookup } = fakeLookup([{ address: "93.184.215.14", family: 4 }, { address: bad }]);
    await assert.rejects(
      checkConnectTarget(new URL("https://mixed.test/"), strict, { lookup }),
      (e: PolicyError) => isMcpError(e, "PolicyError") && e.message.includes(bad),
    );
  }
});

test("strict: public answers pass", async () => {
  const { lookup } = fakeLookup([{ address: "93.184.215.14", family: 4 }, {
    address: "2606:2800:21f:cb07::1",
    family: 6,
  }]);
  await checkConnectTarget(new URL("https://example.test/"), strict, { lookup });
});

test("strict: IP literals are classified without a lookup", async () => {
  const { calls, lookup } = fakeLookup([]);
  await checkConnectTarget(new URL("https://8.8.8.8/"), strict, { lookup });
  await assert.rejects(
    checkConnectTarget(new URL("https://[::1]/"), strict, { lookup }),
    /loopback/,
  );
  await assert.rejects(
    checkConnectTarget(new URL("https://0x7f000001/"), strict, { lookup }),
    /loopback/,
  );
  assert.deepEqual(calls, []);
});

test("strict: a name that does not resolve, or resolves to nothing, is a NetworkError", async () => {
  const failing = fakeLookup(
    Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.test"), { code: "ENOTFOUND" }),
  );
  const error = await checkConnectTarget(new URL("https://nowhere.test/"), strict, {
    lookup: failing.lookup,
    server: "srv",
  }).catch((e) => e);
  assert.ok(isMcpError(error, "NetworkError"), String(error));
  assert.equal(error.server, "srv");
  assert.ok(error.cause instanceof Error);
  const empty = fakeLookup([]);
  assert.ok(
    isMcpError(
      await checkConnectTarget(new URL("https://x.test/"), strict, empty).catch((e) => e),
      "NetworkError",
    ),
  );
});

test("strict, real resolver (Deno/Node): localhost resolves to loopback and is refused", async () => {
  const error = await checkConnectTarget(new URL("https://localhost:8443/mcp"), strict).catch((e) =>
    e
  );
  assert.ok(isMcpError(error, "PolicyError"), String(error));
  assert.match(error.message, /resolves to (127\.0\.0\.1|::1).*loopback/);
});

/** The error `promise` rejects with (fails when it resolves). */
async function rejection<T>(promise: Promise<unknown>): Promise<T> {
  return await promise.then(
    () => assert.fail("resolved"),
    (error: T) => error,
  );
}

describe("strict: the exact errors", () => {
  test("an IP literal that is not public: the exact message, field and server", async () => {
    const error = await rejection<PolicyError>(
      checkConnectTarget(new URL("https://10.0.0.1:8443/mcp?key=sk-1"), strict, { server: "s" }),
    );
    assert.ok(isMcpError(error, "PolicyError"));
    assert.equal(
      error.message,
      'Server "s": url "https://10.0.0.1:8443" is not a public address: private (10.0.0.0/8); ' +
        "strict mode allows public addresses only",
    );
    assert.equal(error.field, "url");
    assert.equal(error.server, "s");
  });

  test("an answer that is not an IP address is refused", async () => {
    const lookup = () => Promise.resolve([{ address: "93.184.215.14" }, { address: "other.test" }]);
    const error = await rejection<PolicyError>(
      checkConnectTarget(new URL("https://odd.test/"), strict, { lookup }),
    );
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    assert.equal(
      error.message,
      'url "https://odd.test" resolves to other.test, which is not a public address: ' +
        "not an IP address; strict mode allows public addresses only",
    );
  });

  test("a lookup failure is a NetworkError naming the host (and the server when known)", async () => {
    const cause = new Error("ENOTFOUND");
    const lookup = () => Promise.reject(cause);
    const named = await rejection<NetworkError>(
      checkConnectTarget(new URL("https://gone.test/"), strict, { lookup, server: "s" }),
    );
    assert.ok(isMcpError(named, "NetworkError"));
    assert.equal(named.message, 'Server "s": cannot resolve host "gone.test"');
    assert.equal(named.server, "s");
    assert.equal(named.cause, cause);
    const anonymous = await rejection<NetworkError>(
      checkConnectTarget(new URL("https://gone.test/"), strict, { lookup }),
    );
    assert.equal(anonymous.message, 'cannot resolve host "gone.test"');
  });

  test("no address at all is a NetworkError", async () => {
    const error = await rejection<NetworkError>(
      checkConnectTarget(new URL("https://empty.test/"), strict, {
        lookup: () => Promise.resolve([]),
        server: "s",
      }),
    );
    assert.ok(isMcpError(error, "NetworkError"));
    assert.equal(error.message, 'host "empty.test" resolved to no address');
    assert.equal(error.server, "s");
  });

  test("without a lookup, the system resolver is asked: localhost is refused", async () => {
    const error = await rejection<PolicyError>(
      checkConnectTarget(new URL("https://localhost:1/"), strict),
    );
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    assert.match(error.message, /^url "https:\/\/localhost:1" resolves to (127\.0\.0\.1|::1),/);
  });
});
