import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  parseMcpServersJson,
  parseServersToml,
  toMcpServersJson,
  toServersToml,
} from "../../../lib/mcp/registry/config_formats.ts";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";

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

describe("[[mcp.servers]] TOML", () => {
  test("reads url, name and api_key; names a nameless entry after its host and port", () => {
    const servers = parseServersToml(
      '[llm]\nmodel = "x"\n\n[[mcp.servers]]\nurl = "http://localhost:3000"\nname = "local-skills"\napi_key = "secret"\n\n' +
        '[[mcp.servers]]\nurl = "https://skills.example.org:8443/mcp"\n',
    );
    assert.deepEqual(servers, [
      { name: "local-skills", url: "http://localhost:3000", apiKey: "secret" },
      { name: "skills.example.org-8443", url: "https://skills.example.org:8443/mcp" },
    ]);
    assert.deepEqual(parseServersToml(""), []);
  });

  test("writing keeps the other tables of the document", () => {
    const existing =
      '[llm]\nmodel = "small"\n\n[[mcp.servers]]\nname = "old"\nurl = "http://h:1"\n';
    const written = toServersToml(
      [{ name: "new", url: "http://h:2", apiKey: "k", enabled: false }],
      existing,
    );
    assert.match(written, /\[llm\]\nmodel = "small"/);
    assert.deepEqual(parseServersToml(written), [{
      name: "new",
      url: "http://h:2",
      apiKey: "k",
      enabled: false,
    }]);
  });

  test("a stdio server's start-up allowance and shutdown waits round-trip as *_ms keys", () => {
    const server = {
      name: "azure",
      command: "npx",
      args: ["-y", "@azure/mcp", "server", "start"],
      startupTimeoutMs: 120_000,
      closeTimeoutMs: 500,
      killTimeoutMs: 9_000,
    };
    const written = toServersToml([server]);
    assert.match(written, /startup_timeout_ms = 120_?000/);
    assert.match(written, /close_timeout_ms = 500/);
    assert.match(written, /kill_timeout_ms = 9_?000/);
    assert.deepEqual(parseServersToml(written), [server]);
  });

  test("bad documents name the entry", () => {
    assert.throws(
      () => parseServersToml("[[mcp.servers]]\nname = 3\nurl = 'http://h'\n"),
      /mcp\.servers\[0\]\.name must be a string/,
    );
    assert.throws(() => parseServersToml("mcp = 1\n[x"), /config TOML is not valid/);
  });
});
