// IP literal parsing and classification, and the strict connect-time check, at the edges the
// mutants of `npm run mutate -- policy` showed untested: anchors, `::` compression, IPv4 tails,
// zones and brackets, the reasons and flags of each class, and the exact errors.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  isMcpError,
  type NetworkError,
  type PolicyError,
} from "../../../lib/mcp/protocol/errors.ts";
import { classifyAddress, parseIPv4, parseIPv6 } from "../../../lib/mcp/policy/_address.ts";
import { checkConnectTarget } from "../../../lib/mcp/policy/connect_target.ts";

describe("parseIPv4", () => {
  test("the whole text must be a dotted quad", () => {
    assert.equal(parseIPv4("1.2.3.4"), 0x01020304);
    for (const text of ["1111.2.3.4", "x1.2.3.4", "1.2.3.4x", "1.2.3.44444", "1.2.3.256"]) {
      assert.equal(parseIPv4(text), undefined, text);
    }
  });
});

describe("parseIPv6", () => {
  test("brackets are stripped only as a pair", () => {
    assert.deepEqual(parseIPv6("[::1]"), [0, 0, 0, 0, 0, 0, 0, 1]);
    for (const text of ["[::1", "1::1]", "[1::1"]) assert.equal(parseIPv6(text), undefined, text);
  });

  test("an IPv4 tail fills the last two groups, after :: or after six groups", () => {
    assert.deepEqual(parseIPv6("::1.2.3.4"), [0, 0, 0, 0, 0, 0, 0x0102, 0x0304]);
    assert.deepEqual(parseIPv6("::ffff:10.0.0.1"), [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001]);
    assert.deepEqual(parseIPv6("1:2:3:4:5:6:7.8.9.10"), [1, 2, 3, 4, 5, 6, 0x0708, 0x090a]);
    assert.equal(parseIPv6("::1.2.3.256"), undefined);
  });

  test(":: stands for at least one zero group, and only once", () => {
    assert.deepEqual(parseIPv6("1:2:3::5:6:7:8"), [1, 2, 3, 0, 5, 6, 7, 8]);
    assert.equal(parseIPv6("1:2:3:4::5:6:7:8"), undefined);
    assert.equal(parseIPv6("1::2::3"), undefined);
    assert.equal(parseIPv6("1:2:3:4:5:6:7"), undefined);
  });

  test("a zone is dropped", () => {
    assert.deepEqual(parseIPv6("fe80::1%eth0"), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
  });
});

describe("classifyAddress", () => {
  test("the address is shown bare: no brackets, no zone, lower case", () => {
    assert.equal(classifyAddress("[FE80::1%Eth0]")?.address, "fe80::1");
    assert.equal(classifyAddress("FE80::A%eth0")?.address, "fe80::a");
  });

  test("public addresses of both families are not blocked and say so", () => {
    assert.deepEqual(classifyAddress("8.8.8.8"), {
      family: 4,
      address: "8.8.8.8",
      blocked: false,
      loopback: false,
      reason: "public",
    });
    assert.deepEqual(classifyAddress("2606:4700::1111"), {
      family: 6,
      address: "2606:4700::1111",
      blocked: false,
      loopback: false,
      reason: "public",
    });
  });

  test("outside 2000::/3 is reserved, not loopback", () => {
    assert.deepEqual(classifyAddress("4000::1"), {
      family: 6,
      address: "4000::1",
      blocked: true,
      loopback: false,
      reason: "reserved (outside 2000::/3)",
    });
  });

  test("the ORCHID ranges are named", () => {
    assert.equal(classifyAddress("2001:10::1")?.reason, "ORCHID (deprecated) (2001:10::/28)");
    assert.equal(classifyAddress("2001:20::1")?.reason, "ORCHIDv2 (2001:20::/28)");
  });
});

const strict = { mode: "strict" } as const;

/** The error `promise` rejects with (fails when it resolves). */
async function rejection<T>(promise: Promise<unknown>): Promise<T> {
  return await promise.then(
    () => assert.fail("resolved"),
    (error: T) => error,
  );
}

describe("checkConnectTarget (strict)", () => {
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
