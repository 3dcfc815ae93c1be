// The rules of config_formats.ts that the first registry mutation run found no test holding: every
// field of an entry read and written, the field each error names, the names given to entries
// without one, and where a bad TOML document is wrong.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  nameFromUrl,
  parseMcpServersJson,
  parseServersToml,
  toMcpServersJson,
  toServersToml,
} from "../../../lib/mcp/registry/config_formats.ts";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";
import type { McpServerConfig } from "../../../lib/mcp/protocol/types.ts";

/** `run` throws a PolicyError with exactly this message and field. */
function refuses(run: () => unknown, message: string, field: string | undefined): void {
  assert.throws(run, (e) => {
    assert.ok(isMcpError(e, "PolicyError"), `not a PolicyError: ${e}`);
    assert.equal((e as PolicyError).message, message);
    assert.equal((e as PolicyError).field, field);
    return true;
  });
}

const json = (entry: unknown) => parseMcpServersJson({ mcpServers: { a: entry } });

describe("nameFromUrl", () => {
  test("host and port, other characters folded to one dash, at most 64 characters", () => {
    assert.equal(nameFromUrl("http://localhost:3000/mcp"), "localhost-3000");
    assert.equal(nameFromUrl("https://skills.example.org/mcp"), "skills.example.org");
    // An IPv6 host keeps its brackets in `hostname`: "[::" and "]" fold to a dash each.
    assert.equal(nameFromUrl("http://[::1]:8080/"), "-1--8080");
    const long = `${"a".repeat(70)}.example`;
    assert.equal(nameFromUrl(`http://${long}/`), long.slice(0, 64));
  });

  test('no URL, or no host left after folding, is named "server"', () => {
    assert.equal(nameFromUrl("not a url"), "server");
    assert.equal(nameFromUrl(""), "server");
    // A file: URL parses but has neither host nor port.
    assert.equal(nameFromUrl("file:///tmp/x"), "server");
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

describe("[[mcp.servers]] TOML: reading", () => {
  test("entries without a name: after the URL's host, else server-<position>", () => {
    assert.deepEqual(
      parseServersToml(
        '[[mcp.servers]]\ncommand = "a"\n\n[[mcp.servers]]\nurl = "http://h:9/mcp"\n\n' +
          '[[mcp.servers]]\ncommand = "c"\nname = ""\n',
      ).map((s) => s.name),
      ["server-1", "h-9", "server-3"],
    );
  });

  test("every field of an entry", () => {
    const [server] = parseServersToml(
      [
        "[[mcp.servers]]",
        'name = "fs"',
        'command = "npx"',
        'args = ["-y", "fs"]',
        'cwd = "/srv"',
        'transport = "sse"',
        "enabled = false",
        'id = "fs-1"',
        'description = "Files"',
        "timeout_ms = 1000",
        "call_timeout_ms = 2000",
        "max_total_ms = 3000",
        "[mcp.servers.env]",
        'A = "1"',
      ].join("\n"),
    );
    assert.deepEqual(server, {
      name: "fs",
      command: "npx",
      args: ["-y", "fs"],
      env: { A: "1" },
      cwd: "/srv",
      enabled: false,
      id: "fs-1",
      description: "Files",
      timeoutMs: 1000,
      callTimeoutMs: 2000,
      maxTotalMs: 3000,
      transport: "sse",
    });
  });

  test("no [mcp] table, or one without servers, is no servers; anything else is named", () => {
    assert.deepEqual(parseServersToml('[llm]\nmodel = "x"\n'), []);
    assert.deepEqual(parseServersToml('[mcp]\nother = "x"\n'), []);
    assert.deepEqual(parseServersToml('mcp = "x"\n'), []);
    for (const doc of ['[mcp]\nservers = "x"\n', "[mcp.servers]\nname = 1\n"]) {
      refuses(() => parseServersToml(doc), "mcp.servers must be an array of tables", "mcp.servers");
    }
    refuses(
      () => parseServersToml('[mcp]\nservers = ["x"]\n'),
      "mcp.servers[0] must be a table",
      "mcp.servers[0]",
    );
    refuses(
      () => parseServersToml('[[mcp.servers]]\ncommand = "a"\n\n[[mcp.servers]]\nurl = 3\n'),
      "mcp.servers[1].url must be a string",
      "mcp.servers[1].url",
    );
  });

  test("a document that does not parse: where, the parser's first line, no excerpt", () => {
    assert.throws(
      () => parseServersToml('[llm]\napi_key = "sk-secret"\n[[mcp.servers]\nname = "x"\n'),
      (e) => {
        assert.ok(isMcpError(e, "PolicyError"));
        const message = (e as Error).message;
        // smol-toml's message starts "Invalid TOML document: " and goes on with an excerpt.
        assert.equal(
          message,
          "config TOML is not valid at line 3, column 15: expected end of table array declaration",
        );
        assert.ok((e as Error).cause);
        return true;
      },
    );
  });
});

describe("[[mcp.servers]] TOML: writing", () => {
  test("every field, under the names reading takes", () => {
    const servers = [
      {
        name: "fs",
        command: "npx",
        args: ["fs"],
        env: { A: "1" },
        cwd: "/srv",
        transport: "sse",
        enabled: false,
        timeoutMs: 1000,
        callTimeoutMs: 2000,
        maxTotalMs: 0,
        id: "fs-1",
        description: "Files",
      },
      { name: "docs", url: "http://h:1", apiKey: "k", headers: { X: "1" }, args: [] },
    ] as McpServerConfig[];
    const written = toServersToml(servers);
    assert.deepEqual(
      parseServersToml(written),
      servers.map((s, i) => {
        if (i === 0) return s;
        const { args: _, ...rest } = s;
        return rest;
      }),
    );
    assert.match(written, /\bapi_key = "k"/);
    assert.match(written, /\bmax_total_ms = 0\b/);
    assert.equal(/\bargs\b/.test(written.slice(written.indexOf('name = "docs"'))), false);
  });

  test("left out: the auto transport, an id equal to the name, empty headers", () => {
    const written = toServersToml([
      { name: "a", url: "http://h:1", transport: "auto", headers: {} },
      { name: "b", url: "http://h:2", id: "b" } as McpServerConfig,
    ]);
    assert.equal(written.includes("transport"), false, written);
    assert.equal(written.includes("headers"), false, written);
    assert.equal(/\bid\b/.test(written), false, written);
    assert.deepEqual(parseServersToml(written), [
      { name: "a", url: "http://h:1" },
      { name: "b", url: "http://h:2" },
    ]);
  });

  test("keeps the other keys of [mcp] and the other tables; a blank document starts empty", () => {
    const written = toServersToml(
      [{ name: "n", url: "http://h:1" }],
      '[mcp]\nallow = "all"\n\n[[mcp.servers]]\nname = "old"\nurl = "http://h:0"\n\n[llm]\nmodel = "m"\n',
    );
    assert.match(written, /\ballow = "all"/);
    assert.match(written, /\[llm\]\nmodel = "m"/);
    assert.deepEqual(parseServersToml(written), [{ name: "n", url: "http://h:1" }]);
    assert.equal(written.includes("old"), false);
    assert.deepEqual(parseServersToml(toServersToml([], " \n ")), []);
  });
});
