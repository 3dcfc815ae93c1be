// URL policy: the SSRF table of reliability-security.md §1.1 and §6.D item 31, and the
// default-mode rules, checked synchronously before any I/O; the messages word for word. The
// address classification it uses: policy_address.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";
import { checkUrl, type UrlPolicyOptions } from "../../../lib/mcp/policy/url.ts";
import { policyError } from "./_policy_error.ts";

function refusal(url: string, policy: UrlPolicyOptions): PolicyError {
  try {
    checkUrl(url, policy, "url", "srv");
  } catch (error) {
    assert.ok(isMcpError(error, "PolicyError"), `${url}: ${error}`);
    const policyError = error as PolicyError;
    assert.equal(policyError.field, "url");
    assert.equal(policyError.server, "srv");
    return policyError;
  }
  assert.fail(`${url} was allowed`);
}

// [input, the reason the message must carry]
const STRICT_BLOCKED: Array<[string, string]> = [
  // §1.1: every encoding of 127.0.0.1 the WHATWG parser normalises
  ["https://2130706433/", "loopback (127.0.0.0/8)"],
  ["https://0x7f000001/", "loopback (127.0.0.0/8)"],
  ["https://0177.0.0.1/", "loopback (127.0.0.0/8)"],
  ["https://127.1/", "loopback (127.0.0.0/8)"],
  ["https://①②⑦.0.0.1/", "loopback (127.0.0.0/8)"],
  ["https://127.255.255.254:8443/mcp", "loopback (127.0.0.0/8)"],
  ["https://0/", '"this network" (0.0.0.0/8)'],
  ["https://0.0.0.0/", '"this network" (0.0.0.0/8)'],
  ["https://[::ffff:127.0.0.1]/", "IPv4-mapped IPv6 (::ffff:0:0/96, embeds 127.0.0.1: loopback"],
  ["https://[0:0:0:0:0:ffff:a9fe:a9fe]/", "embeds 169.254.169.254: link-local"],
  ["https://[::ffff:8.8.8.8]/", "IPv4-mapped IPv6 (::ffff:0:0/96, embeds 8.8.8.8: public)"],
  ["https://[64:ff9b::a9fe:a9fe]/", "NAT64"],
  ["https://[64:ff9b:1::1]/", "local-use NAT64"],
  ["https://[::]/", "unspecified (::/128)"],
  ["https://[::1]/", "loopback (::1/128)"],
  ["https://[::127.0.0.1]/", "IPv4-compatible"],
  ["https://100.64.0.1/", "carrier-grade NAT (100.64.0.0/10)"],
  ["https://100.127.255.255/", "carrier-grade NAT (100.64.0.0/10)"],
  ["https://224.0.0.1/", "multicast (224.0.0.0/4)"],
  ["https://239.255.255.250/", "multicast (224.0.0.0/4)"],
  ["https://[ff02::1]/", "multicast (ff00::/8)"],
  ["https://10.0.0.1/", "private (10.0.0.0/8)"],
  ["https://172.16.0.1/", "private (172.16.0.0/12)"],
  ["https://172.31.255.255/", "private (172.16.0.0/12)"],
  ["https://192.168.1.1/", "private (192.168.0.0/16)"],
  ["https://[fc00::1]/", "private (unique local) (fc00::/7)"],
  ["https://[fd12:3456::1]/", "private (unique local) (fc00::/7)"],
  ["https://169.254.169.254/latest/meta-data/", "link-local (cloud metadata) (169.254.0.0/16)"],
  ["https://[fe80::1]/", "link-local (fe80::/10)"],
  ["https://[fec0::1]/", "site-local"],
  ["https://255.255.255.255/", "broadcast (255.255.255.255/32)"],
  ["https://240.0.0.1/", "reserved (240.0.0.0/4)"],
  ["https://192.0.0.8/", "IETF protocol assignments"],
  ["https://192.0.2.1/", "documentation (192.0.2.0/24)"],
  ["https://198.51.100.7/", "documentation (198.51.100.0/24)"],
  ["https://203.0.113.9/", "documentation (203.0.113.0/24)"],
  ["https://[2001:db8::1]/", "documentation (2001:db8::/32)"],
  ["https://[3fff::1]/", "documentation (3fff::/20)"],
  ["https://198.18.0.1/", "benchmarking (198.18.0.0/15)"],
  ["https://198.19.255.255/", "benchmarking (198.18.0.0/15)"],
  ["https://[2001:2::1]/", "benchmarking (2001:2::/48)"],
  ["https://[2002:7f00:1::]/", "6to4"],
  ["https://192.88.99.1/", "6to4 relay anycast"],
  ["https://[2001:0:4136:e378::1]/", "Teredo"],
  ["https://[100::1]/", "discard-only"],
  ["https://[4000::1]/", "reserved (outside 2000::/3)"],
  ["https://localhost/", "loopback name"],
  ["https://api.localhost:8443/", "loopback name"],
  ["https://LOCALHOST./", "loopback name"],
  ["http://example.com/", "plain http: strict mode allows https only"],
  ["http://93.184.215.14/", "plain http"],
];

const EVERY_MODE_BLOCKED: Array<[string, string]> = [
  ["file:///etc/passwd", 'scheme "file:"'],
  ["javascript:alert(1)", 'scheme "javascript:"'],
  ["ftp://example.com/", 'scheme "ftp:"'],
  ["data:text/plain,hi", 'scheme "data:"'],
  ["ws://localhost:3000/", 'scheme "ws:"'],
  ["https://user:pass@example.com/mcp", "contains credentials"],
  ["https://user@example.com/mcp", "contains credentials"],
  ["http://u:p@127.0.0.1:3000/", "contains credentials"],
  ["not a url", "not a valid absolute URL"],
  ["/relative/mcp", "not a valid absolute URL"],
  ["http://[fe80::1%25eth0]/", "not a valid absolute URL"],
  ["https://0x100000000/", "not a valid absolute URL"],
  ["", "not a valid absolute URL"],
];

describe("strict mode", () => {
  for (const [url, reason] of [...STRICT_BLOCKED, ...EVERY_MODE_BLOCKED]) {
    test(`refuses ${url || "(empty)"}: ${reason}`, () => {
      const error = refusal(url, { mode: "strict" });
      assert.ok(error.message.includes(reason), error.message);
      assert.ok(error.message.startsWith('Server "srv": '), error.message);
    });
  }

  for (
    const url of [
      "https://example.com",
      "https://example.com/mcp?x=1",
      "https://8.8.8.8/",
      "https://93.184.215.14:8443/mcp",
      "https://100.128.0.1/",
      "https://172.32.0.1/",
      "https://[2606:4700:4700::1111]/",
      "https://a.b.example/",
    ]
  ) {
    test(`allows ${url}`, () => {
      assert.equal(checkUrl(url, { mode: "strict" }).href, new URL(url).href);
    });
  }

  test("allowInsecureHttp does not relax strict mode", () => {
    refusal("http://example.com/", { mode: "strict", allowInsecureHttp: true });
  });
});

describe("default mode", () => {
  for (
    const url of [
      "https://example.com/mcp",
      "https://10.0.0.1/mcp",
      "https://169.254.169.254/",
      "http://localhost:3000/mcp",
      "http://LOCALHOST:3000/",
      "http://api.localhost/",
      "http://127.0.0.1:8080/",
      "http://127.1/",
      "http://2130706433/",
      "http://[::1]:8080/",
      "http://[::ffff:127.0.0.1]/",
      "HTTP://localhost/",
    ]
  ) {
    test(`allows ${url}`, () => {
      assert.ok(checkUrl(url, {}) instanceof URL);
      assert.ok(checkUrl(new URL(url), { mode: "default" }) instanceof URL);
    });
  }

  for (
    const url of [
      "http://example.com/mcp",
      "http://10.0.0.1/",
      "http://0.0.0.0:3000/",
      "http://169.254.169.254/",
      "http://localhost.example.com/",
    ]
  ) {
    test(`refuses plain http to a non-loopback host: ${url}`, () => {
      const error = refusal(url, {});
      assert.match(error.message, /plain http to a host that is not loopback/);
      assert.match(error.message, /allowInsecureHttp/);
    });
    test(`allows ${url} with allowInsecureHttp`, () => {
      assert.ok(checkUrl(url, { allowInsecureHttp: true }) instanceof URL);
    });
  }

  for (const [url, reason] of EVERY_MODE_BLOCKED) {
    test(`refuses ${url || "(empty)"}: ${reason}`, () => {
      const error = refusal(url, { allowInsecureHttp: true });
      assert.ok(error.message.includes(reason), error.message);
    });
  }
});

describe("messages", () => {
  test("never contain user info, path or query", () => {
    for (
      const url of [
        "https://alice:s3cr3t-pw@example.com/p?token=abc123",
        "http://h.example/p?token=abc123",
      ]
    ) {
      const error = refusal(url, { mode: "strict" });
      assert.ok(!/s3cr3t-pw|alice|abc123/.test(error.message), error.message);
    }
  });

  test("an invalid URL's parser message (which may quote the input) is not passed on", () => {
    const error = refusal("http://user:hunter2-pw@[bad/", {});
    assert.ok(!error.message.includes("hunter2-pw"), error.message);
    assert.equal(error.cause, undefined);
  });

  test("the field is configurable (for redirects) and an unknown mode is refused", () => {
    assert.throws(
      () => checkUrl("file:///x", {}, "redirect"),
      (e: PolicyError) => e.field === "redirect",
    );
    assert.throws(
      () => checkUrl("https://example.com", { mode: "lax" as "strict" }),
      (e: PolicyError) => e.field === "urlPolicy.mode",
    );
  });
});

describe("credentials and modes, word for word", () => {
  test("a password without a user name is refused too, without showing it", () => {
    const error = policyError(() => checkUrl("https://:hunter2@example.com/mcp"));
    assert.equal(
      error.message,
      'url "https://example.com" contains credentials (user:password@): ' +
        "remove them and use the apiKey or headers fields",
    );
    assert.equal(error.field, "url");
  });

  test("an unknown mode names the field urlPolicy.mode", () => {
    const error = policyError(() =>
      checkUrl("https://example.com", { mode: "lax" as "strict" }, "url", "s")
    );
    assert.equal(error.message, 'Server "s": unknown URL policy mode: use "default" or "strict"');
    assert.equal(error.field, "urlPolicy.mode");
  });
});
