// [[mcp.servers]] TOML, the format of config.toml (lib/mcp/registry/config_formats.ts): names
// given to entries without one (nameFromUrl: host and port folded, else server-<position>), every
// field read and written under the same names (the auto transport, an id equal to the name and
// empty headers left out), the stdio waits as *_ms keys, the other keys and tables of the document
// kept, and where a bad document is wrong. mcpServers JSON: config_formats_json.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  nameFromUrl,
  parseServersToml,
  toServersToml,
} from "../../../lib/mcp/registry/config_formats.ts";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import type { McpServerConfig } from "../../../lib/mcp/protocol/types.ts";
import { refuses } from "./_config_formats.ts";

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
