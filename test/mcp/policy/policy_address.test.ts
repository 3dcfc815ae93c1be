// IP literals: parsing (dotted quads, IPv6 with `::`, IPv4 tails, zones, brackets) and the
// classification the URL policy and the connect-time check refuse by (family, shown address,
// blocked, loopback, reason), with properties against the WHATWG URL parser.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { classifyAddress, parseIPv4, parseIPv6 } from "../../../lib/mcp/policy/_address.ts";
import { isLoopbackHost } from "../../../lib/mcp/policy/url.ts";

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

describe("loopback hosts, DNS answer forms, properties", () => {
  test("isLoopbackHost", () => {
    for (
      const host of [
        "localhost",
        "a.localhost",
        "localhost.",
        "127.0.0.1",
        "127.9.9.9",
        "[::1]",
        "::1",
      ]
    ) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (
      const host of [
        "example.com",
        "localhost.example",
        "10.0.0.1",
        "0.0.0.0",
        "[::]",
        "mylocalhost",
      ]
    ) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  test("DNS answer forms: dotted IPv4 tails, zones, full and compressed IPv6", () => {
    assert.equal(classifyAddress("::ffff:127.0.0.1")?.loopback, true);
    assert.equal(classifyAddress("fe80::1%eth0")?.reason, "link-local (fe80::/10)");
    assert.equal(classifyAddress("0:0:0:0:0:0:0:1")?.reason, "loopback (::1/128)");
    assert.equal(classifyAddress("2606:4700:4700::1111")?.blocked, false);
    assert.equal(classifyAddress("8.8.4.4")?.blocked, false);
    for (
      const notIp of [
        "example.com",
        ":::",
        "1::2::3",
        "12345::",
        "1.2.3.256",
        "1.2.3",
        "::g",
        "1:2:3:4:5:6:7:8:9",
      ]
    ) {
      assert.equal(classifyAddress(notIp), undefined, notIp);
    }
  });

  test("property: the IPv6 parser agrees with the WHATWG serialiser", () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (groups) => {
        const full = groups.map((g) => g.toString(16)).join(":");
        const hostname = new URL(`http://[${full}]/`).hostname;
        assert.deepEqual(parseIPv6(hostname), groups);
        assert.deepEqual(parseIPv6(full), groups);
      }),
      { numRuns: 500 },
    );
  });

  test("property: every IPv4 literal form of an address classifies like its dotted quad", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (n) => {
        const dotted = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
        for (const form of [String(n), `0x${n.toString(16)}`, `0${n.toString(8)}`]) {
          assert.equal(new URL(`https://${form}/`).hostname, dotted);
        }
        assert.equal(classifyAddress(dotted)?.address, dotted);
      }),
      { numRuns: 300 },
    );
  });
});
