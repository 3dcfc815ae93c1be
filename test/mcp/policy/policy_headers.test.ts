// Header policy (§1.2, §6.D item 35, prior-art §8 item 4): blocked names and their advice, RFC
// 9110 token names, values, the total size, word-for-word messages, and the check before any I/O
// through connect() against a real server. Over 300 lines: one table of blocked names and the
// exact messages of each check belong to the same policy.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";
import {
  blockedHeaderReason,
  checkHeaderName,
  checkHeaders,
  checkHeaderValue,
  MAX_HEADER_VALUE_BYTES,
  MAX_HEADERS_TOTAL_BYTES,
} from "../../../lib/mcp/policy/headers.ts";
import { connect } from "../../../lib/mcp/client/client.ts";
import { prepareServer } from "../../../lib/mcp/policy/prepare.ts";
import { type FaultServer, initialize, startFaultServer } from "../_fault_server.ts";
import { policyError } from "./_policy_error.ts";

const VALUE = "VALUE-never-in-messages-7c1d";

function refused(headers: Record<string, string>, field: string): PolicyError {
  try {
    checkHeaders(headers, { server: "srv" });
  } catch (error) {
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    const policyError = error as PolicyError;
    assert.equal(policyError.field, field);
    assert.equal(policyError.server, "srv");
    assert.ok(!policyError.message.includes(VALUE), policyError.message);
    return policyError;
  }
  assert.fail(`${JSON.stringify(Object.keys(headers))} was allowed`);
}

const BLOCKED = [
  // the brief's list
  "Authorization",
  "Host",
  "Content-Type",
  "Content-Length",
  "Transfer-Encoding",
  "Connection",
  "Cookie",
  "Set-Cookie",
  "X-Forwarded-For",
  "X-Forwarded-Host",
  "x-forwarded-proto",
  "Proxy-Authorization",
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "Last-Event-ID",
  "Accept",
  // transport-owned in 2026-07-28
  "Mcp-Method",
  "Mcp-Name",
  "Mcp-Param-Region",
  // the Fetch standard's forbidden request headers
  "Accept-Charset",
  "Accept-Encoding",
  "Access-Control-Request-Headers",
  "Access-Control-Request-Method",
  "Access-Control-Request-Private-Network",
  "Date",
  "DNT",
  "Expect",
  "Keep-Alive",
  "Origin",
  "Permissions-Policy",
  "Referer",
  "TE",
  "Trailer",
  "Upgrade",
  "Via",
  "Proxy-Connection",
  "Proxy-Anything",
  "Sec-Fetch-Mode",
  "Sec-CH-UA",
  "X-HTTP-Method",
  "X-HTTP-Method-Override",
  "X-Method-Override",
  "Forwarded",
];

describe("blocked names", () => {
  for (const name of BLOCKED) {
    for (const spelling of new Set([name, name.toLowerCase(), name.toUpperCase()])) {
      test(`${spelling} is refused with field headers.${spelling}`, () => {
        const error = refused({ [spelling]: VALUE }, `headers.${spelling}`);
        assert.ok(error.message.includes(`header "${spelling}" is not allowed`), error.message);
        assert.equal(typeof blockedHeaderReason(spelling), "string");
      });
    }
  }

  test("Authorization points to the apiKey field", () => {
    const error = refused({ Authorization: `Bearer ${VALUE}` }, "headers.Authorization");
    assert.match(error.message, /apiKey/);
  });

  test("Cookie suggests another way to send credentials", () => {
    assert.match(refused({ Cookie: VALUE }, "headers.Cookie").message, /apiKey|X-Api-Key/);
  });

  for (
    const name of [
      "X-Api-Key",
      "x-custom",
      "X-Trace-Id",
      "Accept-Language",
      "User-Agent",
      "If-None-Match",
      "X-Forwarded",
    ]
  ) {
    test(`${name} is allowed`, () => {
      assert.equal(blockedHeaderReason(name), undefined);
      assert.deepEqual(checkHeaders({ [name]: "v" }), { [name]: "v" });
    });
  }
});

describe("names must be RFC 9110 tokens", () => {
  for (
    const name of [
      "X Api",
      "X:Api",
      "",
      "X-Ä",
      "X-Api\r\nInjected",
      "X-Api\0",
      "(x)",
      "x/y",
      'x"y',
      "x@y",
    ]
  ) {
    test(`${JSON.stringify(name)} is refused`, () => {
      const error = refused({ [name]: VALUE }, `headers.${name}`);
      assert.match(error.message, /not a valid HTTP token/);
      assert.ok(!/[\r\n\0]/.test(error.message), "control characters are escaped in the message");
    });
  }
});

describe("values", () => {
  const bad: Array<[string, string, RegExp]> = [
    ["CR", `a\r${VALUE}`, /line break/],
    ["LF", `a\n${VALUE}`, /line break/],
    ["CRLF injection", `a\r\nX-Injected: 1${VALUE}`, /line break/],
    ["NUL", `a\0${VALUE}`, /NUL/],
    ["another control character", `a\x01${VALUE}`, /control character/],
    ["DEL", `a\x7f${VALUE}`, /control character/],
    ["non-Latin-1 (CJK)", `日本${VALUE}`, /outside Latin-1/],
    ["non-Latin-1 (emoji)", `😀${VALUE}`, /outside Latin-1/],
    ["over 8 KiB", VALUE + "a".repeat(MAX_HEADER_VALUE_BYTES), /longer than 8192 bytes/],
  ];
  for (const [what, value, message] of bad) {
    test(`${what} is refused without echoing the value`, () => {
      assert.match(refused({ "X-Api-Key": value }, "headers.X-Api-Key").message, message);
    });
  }

  test("Latin-1, tabs inside, exactly 8 KiB: allowed; surrounding spaces trimmed", () => {
    assert.equal(checkHeaderValue("X", "naïve café ÿ"), "naïve café ÿ");
    assert.equal(checkHeaderValue("X", " a\tb \t"), "a\tb");
    assert.equal(checkHeaderValue("X", "a".repeat(MAX_HEADER_VALUE_BYTES)).length, 8192);
    assert.equal(checkHeaderValue("X", ""), "");
  });

  test("a non-string value is refused", () => {
    refused({ "X-A": 42 as unknown as string }, "headers.X-A");
  });
});

test("the headers' total size is capped (12 KiB as sent), naming no value", () => {
  const value = (n: number) => VALUE + "a".repeat(n - VALUE.length);
  // "X-A: " + value + CRLF: each header takes its name, its value and 4 bytes.
  const fits = { "X-A": value(8000), "X-B": value(MAX_HEADERS_TOTAL_BYTES - 8000 - 14) };
  assert.equal(Object.keys(checkHeaders(fits)).length, 2);
  const over = { ...fits, "X-C": "1" };
  assert.match(refused(over, "headers").message, /3 custom headers take 12296 bytes, more than/);
  const many = Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`X-H${i}`, VALUE]));
  assert.match(refused(many, "headers").message, /700 custom headers take \d+ bytes/);
});

test("names differing only in case are refused", () => {
  const error = refused({ "X-Api-Key": "a", "x-api-key": "b" }, "headers.x-api-key");
  assert.match(error.message, /twice/);
});

test("the result is a copy with trimmed values", () => {
  const input = { "X-A": " 1 ", "X-B": "2" };
  const output = checkHeaders(input);
  assert.deepEqual(output, { "X-A": "1", "X-B": "2" });
  assert.notEqual(output, input);
});

describe("before any I/O", () => {
  // connect() against a real server: the refusal must come before a single request reaches it.
  let fault: FaultServer;
  beforeEach(async () => {
    fault = await startFaultServer();
  });
  afterEach(() => fault.close());

  const cases: Array<[string, Record<string, string>]> = [
    ["headers.Host", { Host: "evil.example" }],
    ["headers.Mcp-Session-Id", { "Mcp-Session-Id": "abc" }],
    ["headers.X-HTTP-Method-Override", { "X-HTTP-Method-Override": "DELETE" }],
    ["headers.X-Bad", { "X-Bad": "a\r\nb" }],
    ["headers.X Bad", { "X Bad": "a" }],
    ["headers.X-Big", { "X-Big": "a".repeat(9000) }],
  ];
  for (const [field, headers] of cases) {
    test(`connect() refuses ${field} and the server receives nothing`, async () => {
      const error = await connect({ name: "srv", url: fault.url, headers }, { env: {} })
        .then(() => undefined, (e: PolicyError) => e);
      assert.ok(isMcpError(error, "PolicyError"), String(error));
      assert.equal(error.field, field);
      assert.equal(error.server, "srv");
      assert.equal(fault.received.length, 0);
    });
  }

  test("the same server accepts a connection with allowed headers (the check above can fail)", async () => {
    fault.script(initialize());
    fault.lifecycle = true;
    const client = await connect({ name: "srv", url: fault.url, headers: { "X-Api-Key": "k" } });
    await client.close();
    assert.ok(fault.received.length > 0);
    assert.equal(fault.received[0].headers["x-api-key"], "k");
  });
});

describe("advice and messages, word for word", () => {
  test("every method-override header is refused as forbidden", () => {
    const forbidden =
      "it is a forbidden request header (Fetch standard) that browsers drop or refuse; remove it";
    for (const name of ["X-HTTP-Method", "X-HTTP-Method-Override", "X-Method-Override"]) {
      assert.equal(blockedHeaderReason(name), forbidden, name);
    }
  });

  test("the advice of each kind, word for word", () => {
    assert.equal(
      blockedHeaderReason("Content-Length"),
      "the HTTP stack manages framing and connection headers; remove it",
    );
    assert.equal(blockedHeaderReason("Mcp-Session-Id"), "the MCP transport sets it; remove it");
    assert.equal(
      blockedHeaderReason("X-Forwarded-For"),
      "proxies set it and a client must not forge it; remove it",
    );
    assert.equal(blockedHeaderReason("X-Api-Key"), undefined);
  });

  test("an invalid header name: the exact message and field", () => {
    const error = policyError(() => checkHeaderName("X A", { server: "s" }));
    assert.equal(
      error.message,
      'Server "s": header name "X A" is not a valid HTTP token: ' +
        "use letters, digits and !#$%&'*+-.^_`|~ only (no spaces, colons or control characters)",
    );
    assert.equal(error.field, "headers.X A");
  });

  test("a long header name is shown cut at 100 characters; 100 are shown whole", () => {
    const long = `X${"a".repeat(100)} `;
    assert.match(
      policyError(() => checkHeaderName(long)).message,
      new RegExp(`"X${"a".repeat(99)}…"`),
    );
    const hundred = `X${"a".repeat(98)} `;
    assert.equal(hundred.length, 100);
    assert.ok(
      policyError(() => checkHeaderName(hundred)).message.includes(JSON.stringify(hundred)),
    );
  });

  test("headers that are not an object, under the given field", () => {
    for (const headers of [null, ["X-A"], "X-A: 1"]) {
      const error = policyError(() =>
        checkHeaders(headers as unknown as Record<string, string>, { field: "extra", server: "s" })
      );
      assert.equal(
        error.message,
        'Server "s": extra must be an object of header names to string values',
      );
      assert.equal(error.field, "extra");
    }
  });

  test("value problems, word for word; spaces and tabs trimmed at both ends", () => {
    assert.equal(
      policyError(() => checkHeaderValue("X-A", 5 as unknown as string)).message,
      'the value of header "X-A" is not a string',
    );
    assert.equal(
      policyError(() => checkHeaderValue("X-A", "naïve ✓")).message,
      'the value of header "X-A" contains characters outside Latin-1 (such as emoji or non-Latin ' +
        "letters): percent-encode or base64-encode it",
    );
    assert.equal(checkHeaderValue("X-A", " \t v \t "), "v");
    const prepared = prepareServer({
      name: "s",
      url: "https://example.com",
      apiKey: "  sk-1234\t ",
    });
    assert.equal(prepared.authorization, "Bearer sk-1234");
  });
});
