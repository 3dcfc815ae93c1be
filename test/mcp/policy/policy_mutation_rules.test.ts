// Header, URL, template and redaction rules at the edges the mutants of
// `npm run mutate -- policy` showed untested: the method-override headers, exact advice and
// messages, a password without a user name, a "}" before a placeholder, adjacent secrets.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";
import {
  blockedHeaderReason,
  checkHeaderName,
  checkHeaders,
  checkHeaderValue,
} from "../../../lib/mcp/policy/headers.ts";
import { prepareServer } from "../../../lib/mcp/policy/prepare.ts";
import { redact } from "../../../lib/mcp/policy/redact.ts";
import { expandTemplate } from "../../../lib/mcp/policy/template.ts";
import { checkUrl } from "../../../lib/mcp/policy/url.ts";

/** The PolicyError `run` throws (fails when it returns). */
function policyError(run: () => unknown): PolicyError {
  try {
    run();
  } catch (error) {
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    return error as PolicyError;
  }
  assert.fail("no PolicyError");
}

describe("headers", () => {
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

describe("URLs", () => {
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

describe("templates", () => {
  test('a "}" before a placeholder is literal text', () => {
    assert.equal(expandTemplate("a}${X}", { X: "1" }, "apiKey"), "a}1");
  });

  test("the messages, word for word", () => {
    assert.equal(
      policyError(() => expandTemplate("x${A", {}, "apiKey", "s")).message,
      'Server "s": apiKey has an unterminated "${" at character 2: close it with "}", or write "$${" for a literal "${"',
    );
    assert.equal(
      policyError(() => expandTemplate("${A-B}", {}, "apiKey")).message,
      "apiKey has a malformed placeholder at character 1: use ${NAME} or ${NAME:-default} " +
        '(NAME is letters, digits and _), or "$${" for a literal "${"',
    );
    assert.equal(
      policyError(() => expandTemplate("${TOKEN}", {}, "apiKey")).message,
      'apiKey uses ${TOKEN}, but the environment variable "TOKEN" is not set: ' +
        "set it, or give a default with ${TOKEN:-default}",
    );
  });

  test("an environment that cannot be read (Deno without --allow-env) says how to fix it", () => {
    const denied = new Error("Requires env access");
    const env = new Proxy({}, {
      get() {
        throw denied;
      },
    });
    const error = policyError(() => expandTemplate("${TOKEN}", env, "apiKey"));
    assert.equal(
      error.message,
      "apiKey uses ${TOKEN}, but the environment could not be read (on Deno, grant --allow-env): " +
        "pass the variables explicitly with the env option",
    );
    assert.equal(error.cause, denied);
  });
});

describe("redact", () => {
  test('the marker is "[redacted]"', () => {
    assert.equal(redact("key sk-123456", ["sk-123456"]), "key [redacted]");
  });

  test("a Bearer token after several spaces or a tab is caught", () => {
    assert.equal(redact("Bearer   abcdefgh123", []), "Bearer   [redacted]");
    assert.equal(redact("bearer\tabcdefgh123", []), "bearer\t[redacted]");
  });

  test("secrets that touch end to end become one marker", () => {
    assert.equal(redact("<abcdwxyz>", ["abcd", "wxyz"]), "<[redacted]>");
  });

  test("a secret that is not a string is ignored", () => {
    assert.equal(redact("id 123456", [123456 as unknown as string]), "id 123456");
  });
});
