// prepareServer refusing a configuration: each refusal's exact message, field and server (not
// an object, name, transport, url or command, headers, apiKey, the stdio fields), and the
// defaults next to them (/mcp appended, a blank apiKey, the secrets kept). The prepared shapes
// are in policy_prepare.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";
import { prepareServer } from "../../../lib/mcp/policy/prepare.ts";
import type { McpServerConfig } from "../../../lib/mcp/protocol/types.ts";

/** The PolicyError `config` is refused with (fails when it is accepted). */
function refusal(config: unknown): PolicyError {
  try {
    prepareServer(config as McpServerConfig, { env: {} });
  } catch (error) {
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    return error as PolicyError;
  }
  assert.fail(`${JSON.stringify(config)} was accepted`);
}

/** Assert the whole refusal: message (after the `Server "<name>": ` prefix), field and server. */
function refuses(config: unknown, field: string, message: string, server?: string): void {
  const error = refusal(config);
  const prefix = server === undefined ? "" : `Server ${JSON.stringify(server)}: `;
  assert.equal(error.message, `${prefix}${message}`);
  assert.equal(error.field, field);
  assert.equal(error.server, server);
}

const NAME_RULE = 'use 1 to 64 letters, digits, ".", "_" or "-"';

describe("the configuration and its name", () => {
  test("a configuration that is not an object", () => {
    for (const config of [null, 42, "srv"]) {
      refuses(config, "name", "a server configuration must be an object");
    }
  });

  test("a missing or non-string name names no server", () => {
    refuses({ url: "https://example.com" }, "name", `server name is missing: ${NAME_RULE}`);
    refuses(
      { name: 7, url: "https://example.com" },
      "name",
      `server name is missing: ${NAME_RULE}`,
    );
  });

  test("an invalid name is quoted and names the server", () => {
    refuses(
      { name: "a b", url: "https://example.com" },
      "name",
      `server name "a b" is not valid: ${NAME_RULE}`,
      "a b",
    );
  });

  test("an unknown transport", () => {
    refuses(
      { name: "s", url: "https://example.com", transport: "ws" },
      "transport",
      'transport must be "auto", "streamable-http" or "sse"',
      "s",
    );
  });

  test("neither url nor command (missing, empty or null)", () => {
    for (
      const config of [{ name: "s" }, { name: "s", url: "", command: "" }, { name: "s", url: null }]
    ) {
      refuses(config, "url", "set a url (HTTP) or a command (stdio)", "s");
    }
  });

  test("a null url next to a command is no url: the server is stdio", () => {
    const prepared = prepareServer(
      { name: "s", url: null, command: "run" } as unknown as McpServerConfig,
    );
    assert.equal(prepared.kind, "stdio");
    assert.equal(prepared.command, "run");
  });
});

describe("HTTP servers", () => {
  test("a url that is not a string", () => {
    refuses({ name: "s", url: 42 }, "url", "url must be a string", "s");
  });

  test("/mcp is appended to an empty path only; the fragment is dropped", () => {
    const at = (url: string) => prepareServer({ name: "s", url }, { env: {} }).url?.href;
    assert.equal(at("http://127.0.0.1:3001"), "http://127.0.0.1:3001/mcp");
    assert.equal(at("http://127.0.0.1:3001/"), "http://127.0.0.1:3001/mcp");
    assert.equal(at("http://127.0.0.1:3001/x#frag"), "http://127.0.0.1:3001/x");
    assert.equal(at("http://127.0.0.1:3001/?q=1"), "http://127.0.0.1:3001/mcp?q=1");
  });

  test("headers that are not an object of strings", () => {
    for (const headers of [["X-A", "1"], "X-A: 1", 5]) {
      refuses(
        { name: "s", url: "https://example.com", headers },
        "headers",
        "headers must be an object of header names to string values",
        "s",
      );
    }
    refuses(
      { name: "s", url: "https://example.com", headers: { "X-A": 5 } },
      "headers.X-A",
      'the value of header "X-A" is not a string',
      "s",
    );
  });

  test("an apiKey that is not a string", () => {
    for (const apiKey of [5, true, {}]) {
      refuses(
        { name: "s", url: "https://example.com", apiKey },
        "apiKey",
        "apiKey must be a string",
        "s",
      );
    }
  });

  test('only a leading "Bearer " is refused; the word elsewhere is part of the key', () => {
    refuses(
      { name: "s", url: "https://example.com", apiKey: "bearer\tsk-1" },
      "apiKey",
      'apiKey starts with "Bearer ": give the bare token; skillmux adds "Bearer "',
      "s",
    );
    const prepared = prepareServer({
      name: "s",
      url: "https://example.com",
      apiKey: "sk bearer x",
    });
    assert.equal(prepared.authorization, "Bearer sk bearer x");
    assert.deepEqual(prepared.secrets, ["sk bearer x"]);
  });

  test("an apiKey of blanks means none; the secrets are the key and the header values, once each", () => {
    const blank = prepareServer({ name: "s", url: "https://example.com", apiKey: " \t " });
    assert.equal(blank.authorization, undefined);
    assert.deepEqual(blank.secrets, []);
    const both = prepareServer({
      name: "s",
      url: "https://example.com",
      apiKey: "sk-1234",
      headers: { "X-Api-Key": "sk-1234", "X-Team": "team-9" },
    });
    assert.deepEqual(both.secrets, ["sk-1234", "team-9"]);
    assert.deepEqual(both.args, []);
    assert.deepEqual(both.env, {});
  });
});

describe("stdio servers", () => {
  test("a transport other than auto", () => {
    refuses(
      { name: "s", command: "run", transport: "sse" },
      "transport",
      'transport "sse" is for HTTP servers; a command uses stdio',
      "s",
    );
  });

  test("apiKey and non-empty headers are refused; empty headers are not", () => {
    refuses(
      { name: "s", command: "run", apiKey: "sk-1234" },
      "apiKey",
      "apiKey applies to HTTP servers only: pass secrets to a stdio server through env",
      "s",
    );
    refuses(
      { name: "s", command: "run", headers: { "X-A": "1" } },
      "headers",
      "headers apply to HTTP servers only: pass settings to a stdio server through env",
      "s",
    );
    assert.equal(prepareServer({ name: "s", command: "run", headers: {} }).kind, "stdio");
  });

  test("command, args and cwd: strings without NUL", () => {
    refuses({ name: "s", command: 5 }, "command", "command must be a string", "s");
    refuses({ name: "s", command: "r\0m" }, "command", "command contains a NUL character", "s");
    refuses(
      { name: "s", command: "run", args: "-x" },
      "args",
      "args must be an array of strings",
      "s",
    );
    refuses(
      { name: "s", command: "run", args: ["ok", 5] },
      "args.1",
      "argument 1 must be a string",
      "s",
    );
    refuses(
      { name: "s", command: "run", args: ["a\0"] },
      "args.0",
      "argument 0 contains a NUL character",
      "s",
    );
    refuses({ name: "s", command: "run", cwd: 5 }, "cwd", "cwd must be a string", "s");
    const plain = prepareServer({ name: "s", command: "run" });
    assert.deepEqual(plain.args, []);
    assert.equal(plain.cwd, undefined);
  });

  test("env: an object of valid names to strings", () => {
    for (const env of [["A=1"], "A=1", 7]) {
      refuses(
        { name: "s", command: "run", env },
        "env",
        "env must be an object of variable names to string values",
        "s",
      );
    }
    for (const key of ["", "A=B", "A\0"]) {
      refuses(
        { name: "s", command: "run", env: { [key]: "1" } },
        `env.${key}`,
        `environment variable name ${JSON.stringify(key)} is not valid`,
        "s",
      );
    }
    refuses(
      { name: "s", command: "run", env: { A: 5 } },
      "env.A",
      'the value of environment variable "A" must be a string',
      "s",
    );
    const prepared = prepareServer({
      name: "s",
      command: "run",
      env: { A: "sk-9", B: "", C: "sk-9" },
    });
    assert.deepEqual(prepared.env, { A: "sk-9", B: "", C: "sk-9" });
    assert.deepEqual(prepared.secrets, ["sk-9"]);
  });
});
