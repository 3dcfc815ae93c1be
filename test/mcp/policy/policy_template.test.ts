// `${VAR}` templating of header values and the API key.
import assert from "node:assert/strict";
import process from "node:process";
import { describe, test } from "node:test";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";
import { prepareServer } from "../../../lib/mcp/policy/prepare.ts";
import { expandTemplate } from "../../../lib/mcp/policy/template.ts";
import { policyError } from "./_policy_error.ts";

const ENV = { TOKEN: "sk-live-123456", EMPTY: "", REGION: "eu-west", A: "${B}", B: "nested" };

function refused(value: string, env: Record<string, string | undefined> = ENV): PolicyError {
  try {
    expandTemplate(value, env, "headers.X-Token", "srv");
  } catch (error) {
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    const policyError = error as PolicyError;
    assert.equal(policyError.field, "headers.X-Token");
    assert.equal(policyError.server, "srv");
    for (const secret of Object.values(ENV)) {
      if (secret.length > 4) assert.ok(!policyError.message.includes(secret), policyError.message);
    }
    return policyError;
  }
  assert.fail(`${value} expanded`);
}

describe("expandTemplate", () => {
  const cases: Array<[string, string]> = [
    ["plain text", "plain text"],
    ["${TOKEN}", "sk-live-123456"],
    ["Token ${TOKEN}; region=${REGION}", "Token sk-live-123456; region=eu-west"],
    ["${MISSING:-fallback}", "fallback"],
    ["${MISSING:-}", ""],
    ["${MISSING:-a b:c-d}", "a b:c-d"],
    ["${REGION:-us}", "eu-west"],
    ["${EMPTY:-used when empty}", "used when empty"],
    ["${EMPTY}", ""],
    ["$${TOKEN}", "${TOKEN}"],
    ["a$${b}c", "a${b}c"],
    ["$$${TOKEN}", "$${TOKEN}"],
    ["$TOKEN", "$TOKEN"],
    ["price: 5$", "price: 5$"],
    ["$", "$"],
    ["${A}", "${B}"],
    ["${MISSING:-${TOKEN}", "${TOKEN"],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(expandTemplate(input, ENV, "headers.X-Token"), expected);
    });
  }

  test("an unset variable without a default names the field and the variable, not values", () => {
    const error = refused("Bearer ${NOPE} and ${TOKEN}");
    assert.match(error.message, /headers\.X-Token/);
    assert.match(error.message, /"NOPE" is not set/);
    assert.ok(error.message.startsWith('Server "srv": '));
  });

  test("names of Object.prototype members are not variables", () => {
    refused("${constructor}");
    refused("${__proto__}");
    refused("${toString}");
  });

  test("malformed placeholders are refused without echoing the text", () => {
    assert.match(refused("${sk-live-123456}").message, /malformed placeholder at character 1/);
    assert.match(refused("x${1ABC}").message, /malformed placeholder at character 2/);
    assert.match(refused("${}").message, /malformed/);
    assert.match(refused("${A B}").message, /malformed/);
    assert.match(refused("abc ${TOKEN").message, /unterminated "\$\{" at character 5/);
  });

  test("an environment that cannot be read (Deno without --allow-env) is a PolicyError with a cause", () => {
    const locked = new Proxy({}, {
      get() {
        throw new Error("Requires env access");
      },
    }) as Record<string, string>;
    const error = refused("${TOKEN}", locked);
    assert.match(error.message, /could not be read/);
    assert.ok(error.cause instanceof Error);
  });
});

describe("prepareServer templating", () => {
  test("header values and the API key are expanded from options.env", () => {
    const prepared = prepareServer(
      {
        name: "srv",
        url: "https://example.com",
        apiKey: "${TOKEN}",
        headers: { "X-Region": "${REGION:-us}", "X-Literal": "$${NOT_A_VAR}" },
      },
      { env: ENV },
    );
    assert.equal(prepared.authorization, "Bearer sk-live-123456");
    assert.deepEqual(prepared.headers, { "X-Region": "eu-west", "X-Literal": "${NOT_A_VAR}" });
    assert.deepEqual(prepared.secrets.sort(), ["${NOT_A_VAR}", "eu-west", "sk-live-123456"].sort());
  });

  test("missing variables: field headers.<Name> or apiKey, with the server", () => {
    for (
      const [config, field] of [
        [{ headers: { "X-Token": "${NOPE}" } }, "headers.X-Token"],
        [{ apiKey: "${NOPE}" }, "apiKey"],
      ] as const
    ) {
      assert.throws(
        () => prepareServer({ name: "srv", url: "https://example.com", ...config }, { env: {} }),
        (error: PolicyError) =>
          isMcpError(error, "PolicyError") && error.field === field && error.server === "srv" &&
          /"NOPE" is not set/.test(error.message),
      );
    }
  });

  test("an expanded value is checked by the header policy (CRLF from the environment)", () => {
    assert.throws(
      () =>
        prepareServer({ name: "srv", url: "https://example.com", headers: { "X-A": "${EVIL}" } }, {
          env: { EVIL: "a\r\nHost: evil" },
        }),
      (error: PolicyError) => error.field === "headers.X-A" && /line break/.test(error.message),
    );
  });

  test("a blocked name is reported before its value is expanded", () => {
    assert.throws(
      () =>
        prepareServer({ name: "srv", url: "https://example.com", headers: { Cookie: "${NOPE}" } }, {
          env: {},
        }),
      (error: PolicyError) => error.field === "headers.Cookie" && /not allowed/.test(error.message),
    );
  });

  test("without options.env the process environment is used (Deno/Node)", () => {
    const name = "SKILLMUX_TEMPLATE_TEST_TOKEN";
    process.env[name] = "from-process-env";
    try {
      const prepared = prepareServer({
        name: "srv",
        url: "https://example.com",
        apiKey: `\${${name}}`,
      });
      assert.equal(prepared.authorization, "Bearer from-process-env");
    } finally {
      delete process.env[name];
    }
  });
});

describe("expandTemplate: literal text and messages, word for word", () => {
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
