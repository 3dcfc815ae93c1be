// mcpServers JSON, the desktop clients' format (lib/mcp/registry/config_formats.ts): every field
// of a stdio and an http entry read (the spellings of the transport, disabled and enabled, the
// timeouts, empty strings and nulls as absent), each wrong field named with what was expected, a
// string that is not JSON; and toMcpServersJson writing every field back (the key only with
// includeSecrets), so that what it writes reads back the same. [[mcp.servers]] TOML:
// config_formats_toml.test.ts. Over 300 lines: one case per field of the format, read and written.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseMcpServersJson, toMcpServersJson } from "../../../lib/mcp/registry/config_formats.ts";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import type { McpServerConfig } from "../../../lib/mcp/protocol/types.ts";
import { refuses } from "./_config_formats.ts";

const json = (entry: unknown) => parseMcpServersJson({ mcpServers: { a: entry } });

describe("mcpServers JSON", () => {
  test("reads stdio and http entries of desktop clients (and VS Code's servers key)", () => {
    const servers = parseMcpServersJson({
      mcpServers: {
        fs: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
          env: { A: "1" },
        },
        docs: { type: "sse", url: "https://docs.example.com/sse", headers: { "X-Team": "bio" } },
        off: { url: "http://localhost:3000/mcp", disabled: true },
      },
    });
    assert.deepEqual(servers, [
      {
        name: "fs",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
        env: { A: "1" },
      },
      {
        name: "docs",
        url: "https://docs.example.com/sse",
        headers: { "X-Team": "bio" },
        transport: "sse",
      },
      { name: "off", url: "http://localhost:3000/mcp", enabled: false },
    ]);
    assert.equal(
      parseMcpServersJson('{"servers":{"a":{"type":"http","url":"http://h/x"}}}')[0].transport,
      "streamable-http",
    );
  });

  test("names the entry and field that are wrong", () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { mcpServers: { a: { url: "http://h", command: "x" } } },
        /mcpServers\.a needs exactly one of "url" and "command"/,
      ],
      [
        { mcpServers: { a: { command: "x", args: [1] } } },
        /mcpServers\.a\.args must be a list of strings/,
      ],
      [
        { mcpServers: { a: { url: "http://h", headers: { k: 1 } } } },
        /mcpServers\.a\.headers must be a table of strings/,
      ],
      [{ nothing: {} }, /"mcpServers"/],
    ];
    for (const [doc, message] of cases) {
      assert.throws(
        () => parseMcpServersJson(doc as Record<string, unknown>),
        (e) => isMcpError(e, "PolicyError") && message.test((e as Error).message),
      );
    }
    assert.throws(() => parseMcpServersJson("{nope"), /not valid JSON/);
  });

  test("round-trips through toMcpServersJson; secrets only on request", () => {
    const servers = [
      {
        name: "docs",
        url: "https://docs.example.com/mcp",
        apiKey: "sk-1",
        headers: { "X-Team": "bio" },
      },
      { name: "fs", command: "npx", args: ["server"] },
    ];
    const plain = toMcpServersJson(servers);
    assert.equal(JSON.stringify(plain).includes("sk-1"), false);
    const back = parseMcpServersJson(plain);
    assert.deepEqual(back[1], { name: "fs", command: "npx", args: ["server"] });
    const withKey = toMcpServersJson(servers, { includeSecrets: true });
    assert.equal(
      (withKey.mcpServers.docs.headers as Record<string, string>).Authorization,
      "Bearer sk-1",
    );
  });
});

describe("mcpServers JSON: every field of an entry", () => {
  test("a stdio entry with args, env and cwd; an http entry with headers and api key", () => {
    assert.deepEqual(
      parseMcpServersJson({
        mcpServers: {
          fs: { command: "npx", args: ["-y", "fs"], env: { A: "1" }, cwd: "/srv" },
          docs: {
            serverUrl: "https://docs.example.com/mcp",
            headers: { "X-Team": "bio" },
            apiKey: "k1",
            id: "docs-1",
            description: "Team docs",
          },
          keyed: { url: "http://h:1", api_key: "k2", type: "streamableHttp" },
        },
      }),
      [
        { name: "fs", command: "npx", args: ["-y", "fs"], env: { A: "1" }, cwd: "/srv" },
        {
          name: "docs",
          url: "https://docs.example.com/mcp",
          headers: { "X-Team": "bio" },
          apiKey: "k1",
          id: "docs-1",
          description: "Team docs",
        },
        { name: "keyed", url: "http://h:1", apiKey: "k2", transport: "streamable-http" },
      ],
    );
  });

  test("empty strings and nulls count as absent", () => {
    assert.deepEqual(
      json({
        url: "http://h:1",
        command: "",
        cwd: null,
        api_key: "",
        id: "",
        description: "",
        timeout_ms: null,
      }),
      [{ name: "a", url: "http://h:1" }],
    );
    assert.deepEqual(json({ url: null, command: "srv" }), [{ name: "a", command: "srv" }]);
  });

  test("the transport: sse, the spellings of Streamable HTTP (any case), nothing else", () => {
    const transport = (type: string) => json({ url: "http://h:1", type })[0].transport;
    assert.equal(transport("sse"), "sse");
    for (const t of ["http", "HTTP", "streamable-http", "streamablehttp", "streamableHttp"]) {
      assert.equal(transport(t), "streamable-http", t);
    }
    for (const t of ["ws", "https", "xhttp", "http2", "SSE"]) {
      assert.equal(transport(t), undefined, t);
    }
    assert.equal(
      json({ url: "http://h:1", transport: "sse" })[0].transport,
      "sse",
      "transport is read when type is not given",
    );
  });

  test("disabled: true and enabled: false both turn a server off; nothing else does", () => {
    assert.equal(json({ url: "http://h:1", disabled: true })[0].enabled, false);
    assert.equal(json({ url: "http://h:1", enabled: false })[0].enabled, false);
    assert.equal("enabled" in json({ url: "http://h:1", disabled: false })[0], false);
    assert.equal("enabled" in json({ url: "http://h:1", enabled: true })[0], false);
  });

  test("the timeouts, in either spelling; the snake_case one wins", () => {
    assert.deepEqual(
      json({ url: "http://h:1", timeout_ms: 1000, callTimeoutMs: 2000, max_total_ms: 3000 }),
      [{ name: "a", url: "http://h:1", timeoutMs: 1000, callTimeoutMs: 2000, maxTotalMs: 3000 }],
    );
    assert.equal(json({ url: "http://h:1", timeout_ms: 5, timeoutMs: 9 })[0].timeoutMs, 5);
    assert.equal(json({ url: "http://h:1", timeoutMs: 9 })[0].timeoutMs, 9);
    assert.equal(json({ url: "http://h:1", timeout_ms: 0 })[0].timeoutMs, 0);
  });

  test("each wrong field is named, with what was expected", () => {
    const cases: Array<[unknown, string, string]> = [
      ["x", "mcpServers.a must be a table", "mcpServers.a"],
      [["x"], "mcpServers.a must be a table", "mcpServers.a"],
      [null, "mcpServers.a must be a table", "mcpServers.a"],
      [{}, 'mcpServers.a needs exactly one of "url" and "command"', "mcpServers.a"],
      [{ url: 1 }, "mcpServers.a.url must be a string", "mcpServers.a.url"],
      [{ serverUrl: true }, "mcpServers.a.url must be a string", "mcpServers.a.url"],
      [{ command: ["npx"] }, "mcpServers.a.command must be a string", "mcpServers.a.command"],
      [
        { command: "x", args: "a b" },
        "mcpServers.a.args must be a list of strings",
        "mcpServers.a.args",
      ],
      [
        { command: "x", args: ["a", 2] },
        "mcpServers.a.args must be a list of strings",
        "mcpServers.a.args",
      ],
      [{ command: "x", type: 1 }, "mcpServers.a.type must be a string", "mcpServers.a.type"],
      [
        { command: "x", env: "A=1" },
        "mcpServers.a.env must be a table of strings",
        "mcpServers.a.env",
      ],
      [
        { command: "x", env: ["A=1"] },
        "mcpServers.a.env must be a table of strings",
        "mcpServers.a.env",
      ],
      [
        { command: "x", env: { A: "1", B: 2 } },
        "mcpServers.a.env must be a table of strings",
        "mcpServers.a.env",
      ],
      [{ command: "x", cwd: 1 }, "mcpServers.a.cwd must be a string", "mcpServers.a.cwd"],
      [
        { url: "http://h", headers: null },
        "mcpServers.a.headers must be a table of strings",
        "mcpServers.a.headers",
      ],
      [
        { url: "http://h", apiKey: 1 },
        "mcpServers.a.api_key must be a string",
        "mcpServers.a.api_key",
      ],
      [{ url: "http://h", id: 1 }, "mcpServers.a.id must be a string", "mcpServers.a.id"],
      [
        { url: "http://h", description: {} },
        "mcpServers.a.description must be a string",
        "mcpServers.a.description",
      ],
      [
        { url: "http://h", timeout_ms: "5s" },
        "mcpServers.a.timeout_ms must be a number of milliseconds",
        "mcpServers.a.timeout_ms",
      ],
      [
        { url: "http://h", callTimeoutMs: "5" },
        "mcpServers.a.call_timeout_ms must be a number of milliseconds",
        "mcpServers.a.call_timeout_ms",
      ],
      [
        { url: "http://h", max_total_ms: false },
        "mcpServers.a.max_total_ms must be a number of milliseconds",
        "mcpServers.a.max_total_ms",
      ],
    ];
    for (const [entry, message, field] of cases) refuses(() => json(entry), message, field);
    refuses(
      () => parseMcpServersJson({ mcpServers: [] }),
      'expected an object with an "mcpServers" (or "servers") table',
      "mcpServers",
    );
    refuses(
      () => parseMcpServersJson("[]"),
      'expected an object with an "mcpServers" (or "servers") table',
      "mcpServers",
    );
  });

  test("a string that is not JSON says so, with the parser's reason", () => {
    assert.throws(
      () => parseMcpServersJson("{nope"),
      (e) =>
        isMcpError(e, "PolicyError") &&
        /^mcpServers JSON is not valid JSON: \S/.test((e as Error).message) &&
        (e as Error).cause instanceof SyntaxError,
    );
  });

  test("an object is read as given, and what is read is a copy", () => {
    const args = ["a"];
    const env = { A: "1" };
    const [server] = parseMcpServersJson({ mcpServers: { a: { command: "x", args, env } } });
    args.push("b");
    env.A = "2";
    assert.deepEqual(server, { name: "a", command: "x", args: ["a"], env: { A: "1" } });
  });
});

describe("toMcpServersJson: every field written", () => {
  test("stdio: command, args when any, env, cwd; no headers; disabled", () => {
    assert.deepEqual(
      toMcpServersJson([
        {
          name: "fs",
          command: "npx",
          args: ["fs"],
          env: { A: "1" },
          cwd: "/srv",
          headers: { X: "1" },
          apiKey: "k",
          enabled: false,
        },
        { name: "bare", command: "srv", args: [] },
        { name: "argless", command: "srv2" },
      ], { includeSecrets: true }),
      {
        mcpServers: {
          fs: { command: "npx", args: ["fs"], env: { A: "1" }, cwd: "/srv", disabled: true },
          bare: { command: "srv" },
          argless: { command: "srv2" },
        },
      },
    );
  });

  test("http: type, url, headers; the key as a header only with includeSecrets", () => {
    const servers: McpServerConfig[] = [
      { name: "legacy", url: "http://h:1/sse", transport: "sse" },
      { name: "auto", url: "http://h:2/mcp", transport: "auto", headers: { X: "1" } },
      { name: "keyed", url: "http://h:3/mcp", apiKey: "k" },
    ];
    assert.deepEqual(toMcpServersJson(servers), {
      mcpServers: {
        legacy: { type: "sse", url: "http://h:1/sse" },
        auto: { type: "http", url: "http://h:2/mcp", headers: { X: "1" } },
        keyed: { type: "http", url: "http://h:3/mcp" },
      },
    });
    assert.deepEqual(toMcpServersJson(servers, { includeSecrets: true }).mcpServers.keyed, {
      type: "http",
      url: "http://h:3/mcp",
      headers: { Authorization: "Bearer k" },
    });
    assert.deepEqual(servers[1].headers, { X: "1" }, "the server's own headers are not changed");
  });

  test("what it writes reads back the same", () => {
    const servers: McpServerConfig[] = [
      { name: "fs", command: "npx", args: ["fs"], env: { A: "1" }, cwd: "/srv", enabled: false },
      { name: "legacy", url: "http://h:1/sse", transport: "sse", headers: { X: "1" } },
    ];
    assert.deepEqual(parseMcpServersJson(toMcpServersJson(servers)), [
      servers[0],
      servers[1],
    ]);
  });
});
