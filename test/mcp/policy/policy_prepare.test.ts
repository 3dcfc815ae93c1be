// prepareServer: names, url xor command, /mcp appending, API key, secrets, stdio fields.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";
import { prepareServer, type PrepareServerOptions } from "../../../lib/mcp/policy/prepare.ts";
import type { McpServerConfig } from "../../../lib/mcp/protocol/types.ts";

function refused(
  config: Partial<McpServerConfig>,
  field: string,
  options: PrepareServerOptions = { env: {} },
) {
  try {
    prepareServer(config as McpServerConfig, options);
  } catch (error) {
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    const policyError = error as PolicyError;
    assert.equal(policyError.field, field, policyError.message);
    if (typeof config.name === "string") assert.equal(policyError.server, config.name);
    return policyError;
  }
  assert.fail(`${JSON.stringify(config)} was accepted`);
}

describe("name", () => {
  for (const name of ["", "a b", "a/b", "ünï", "x".repeat(65), "a:b", "mcp:x"]) {
    test(`${JSON.stringify(name.length > 20 ? `${name.slice(0, 10)}…` : name)} is refused`, () => {
      assert.match(
        refused({ name, url: "https://example.com" }, "name").message,
        /1 to 64 letters/,
      );
    });
  }
  test("a missing or non-string name is refused", () => {
    refused({ url: "https://example.com" }, "name");
    refused({ name: 7 as unknown as string, url: "https://example.com" }, "name");
  });
  for (const name of ["a", "docs.v2_main-1", "x".repeat(64), "A.B"]) {
    test(`${name.length > 20 ? "64 characters" : name} is accepted`, () => {
      assert.equal(prepareServer({ name, url: "https://example.com" }).name, name);
    });
  }
});

describe("url or command", () => {
  test("both are refused", () => {
    assert.match(
      refused({ name: "s", url: "https://example.com", command: "node" }, "command").message,
      /either url .* or command/,
    );
  });
  test("neither is refused", () => {
    refused({ name: "s" }, "url");
    refused({ name: "s", url: "", command: "" }, "url");
  });
  test("transport must be known", () => {
    refused({ name: "s", url: "https://example.com", transport: "ws" as "sse" }, "transport");
  });
});

describe("/mcp is appended only when the URL has no path", () => {
  const cases: Array<[string, string]> = [
    ["http://127.0.0.1:3000", "http://127.0.0.1:3000/mcp"],
    ["http://127.0.0.1:3000/", "http://127.0.0.1:3000/mcp"],
    ["http://localhost/x", "http://localhost/x"],
    ["http://localhost/sse", "http://localhost/sse"],
    ["https://example.com/mcp/", "https://example.com/mcp/"],
    ["https://example.com/?tenant=a", "https://example.com/mcp?tenant=a"],
    ["https://example.com/#frag", "https://example.com/mcp"],
    ["https://example.com/api/mcp#frag", "https://example.com/api/mcp"],
  ];
  for (const [input, expected] of cases) {
    test(`${input} → ${expected}`, () => {
      const prepared = prepareServer({ name: "s", url: input });
      assert.equal(prepared.url?.href, expected);
      assert.equal(prepared.kind, "http");
    });
  }
});

describe("HTTP servers", () => {
  test("the prepared shape", () => {
    const prepared = prepareServer(
      {
        name: "docs",
        url: "https://docs.example.com",
        apiKey: "sk-123456",
        headers: { "X-Team": " blue " },
      },
      { urlPolicy: { mode: "strict" } },
    );
    assert.deepEqual({ ...prepared, url: prepared.url?.href, rootUrl: prepared.rootUrl?.href }, {
      name: "docs",
      kind: "http",
      url: "https://docs.example.com/mcp",
      rootUrl: "https://docs.example.com/",
      transport: "auto",
      headers: { "X-Team": "blue" },
      authorization: "Bearer sk-123456",
      secrets: ["sk-123456", "blue"],
      args: [],
      env: {},
      urlPolicy: { mode: "strict" },
    });
  });

  test("the URL policy applies, with field url and the server", () => {
    assert.match(refused({ name: "s", url: "http://example.com" }, "url").message, /plain http/);
    refused({ name: "s", url: "https://10.0.0.1" }, "url", { urlPolicy: { mode: "strict" } });
    refused({ name: "s", url: "file:///etc/passwd" }, "url");
    refused({ name: "s", url: 42 as unknown as string }, "url");
    assert.ok(
      prepareServer({ name: "s", url: "http://example.com" }, {
        urlPolicy: { allowInsecureHttp: true },
      }),
    );
  });

  test("API key rules: header-value rules, no Bearer prefix, empty means none", () => {
    assert.match(
      refused({ name: "s", url: "https://e.com", apiKey: "a\r\nb" }, "apiKey").message,
      /line break/,
    );
    assert.match(
      refused({ name: "s", url: "https://e.com", apiKey: "Bearer abc" }, "apiKey").message,
      /bare token/,
    );
    refused({ name: "s", url: "https://e.com", apiKey: "ключ" }, "apiKey");
    const none = prepareServer({ name: "s", url: "https://e.com", apiKey: "${KEY:-}" }, {
      env: {},
    });
    assert.equal(none.authorization, undefined);
    assert.deepEqual(none.secrets, []);
  });

  test("headers must be an object of strings", () => {
    refused({
      name: "s",
      url: "https://e.com",
      headers: ["x"] as unknown as Record<string, string>,
    }, "headers");
    refused(
      { name: "s", url: "https://e.com", headers: { "X-A": 1 as unknown as string } },
      "headers.X-A",
    );
  });
});

describe("stdio servers", () => {
  test("the prepared shape; env values are secrets", () => {
    const prepared = prepareServer({
      name: "fs",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
      env: { GITHUB_TOKEN: "ghp_abcdef", DEBUG: "" },
      cwd: "/tmp",
    });
    assert.deepEqual(prepared, {
      name: "fs",
      kind: "stdio",
      transport: "auto",
      headers: {},
      secrets: ["ghp_abcdef"],
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
      env: { GITHUB_TOKEN: "ghp_abcdef", DEBUG: "" },
      cwd: "/tmp",
      urlPolicy: {},
    });
  });

  test("HTTP-only fields and malformed stdio fields are refused", () => {
    refused({ name: "s", command: "x", apiKey: "k" }, "apiKey");
    refused({ name: "s", command: "x", headers: { "X-A": "1" } }, "headers");
    refused({ name: "s", command: "x", transport: "sse" }, "transport");
    refused({ name: "s", command: "x\0y" }, "command");
    refused({ name: "s", command: "x", args: ["ok", 3 as unknown as string] }, "args.1");
    refused({ name: "s", command: "x", args: "a b" as unknown as string[] }, "args");
    refused({ name: "s", command: "x", env: { "A=B": "1" } }, "env.A=B");
    refused({ name: "s", command: "x", env: { A: 1 as unknown as string } }, "env.A");
    refused({ name: "s", command: "x", cwd: 5 as unknown as string }, "cwd");
    assert.equal(prepareServer({ name: "s", command: "x", headers: {} }).kind, "stdio");
  });

  test("the start-up allowance and shutdown waits are kept; an HTTP server or a bad value is refused", () => {
    const prepared = prepareServer({
      name: "slow",
      command: "npx",
      startupTimeoutMs: 120_000,
      closeTimeoutMs: 0,
      killTimeoutMs: 500,
    });
    assert.equal(prepared.startupTimeoutMs, 120_000);
    assert.equal(prepared.closeTimeoutMs, 0);
    assert.equal(prepared.killTimeoutMs, 500);
    assert.equal("startupTimeoutMs" in prepareServer({ name: "s", command: "x" }), false);
    const http = refused(
      { name: "s", url: "https://example.com", startupTimeoutMs: 1 },
      "startupTimeoutMs",
    );
    assert.match(http.message, /applies to stdio servers only/);
    refused({ name: "s", url: "https://example.com", killTimeoutMs: 1 }, "killTimeoutMs");
    refused({ name: "s", command: "x", startupTimeoutMs: -1 }, "startupTimeoutMs");
    refused(
      { name: "s", command: "x", closeTimeoutMs: "5" as unknown as number },
      "closeTimeoutMs",
    );
  });
});
