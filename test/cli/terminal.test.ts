// Nothing from outside reaches the terminal raw: the CLI as a real subprocess against a hostile MCP
// server (escapes in its name, version, skill listing, skill text and HTTP error body) and a hostile
// skill registry (escapes in a description). Every command's stdout and stderr must be free of raw
// ESC, C0 (but newline, tab) and C1 characters (U+009B is a one-character CSI), show the text
// escaped instead, and keep `--json` valid JSON that parses back to what the server sent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Handler, rpcResult, startFaultServer, text } from "../mcp/_fault_server.ts";
import type { FaultServer } from "../mcp/_fault_server.ts";
import { setIndex, startRegistry, type TestRegistry } from "../install/_registry.ts";
import { cli, type Result, sub, tempHome } from "./_helpers.ts";

/** Window title (OSC 0), clear screen (CSI), a C1 CSI, a hyperlink (OSC 8), a bell, DEL. */
const EVIL =
  "\x1b]0;pwned\x07\x1b[2J\x9b31m\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\\x7f";
// deno-lint-ignore no-control-regex
const RAW = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\r(?!\n)/;

const SKILL = "---\nname: evil-skill\ndescription: Evil \x9b2J description. Use when testing.\n" +
  `---\n\n## Concepts\n\n- body ${EVIL} end\n`;

/** Answers like an MCP server whose every string carries escapes; `down` makes it a 500. */
function hostile(state: { down: boolean }): Handler {
  return (exchange) => {
    const { rpc, res } = exchange;
    if (state.down) return text(500, `upstream says ${EVIL}`)(exchange);
    if (rpc?.id === undefined) return void res.writeHead(202).end();
    const results: Record<string, unknown> = {
      initialize: {
        protocolVersion: rpc.params?.protocolVersion ?? "2025-11-25",
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: `evil${EVIL}`, version: `6.6${EVIL}` },
      },
      ping: {},
      "tools/list": { tools: [] },
      "resources/list": {
        resources: [{
          uri: "skill://evil-skill",
          name: "evil-skill",
          description: `Listed ${EVIL} description`,
          mimeType: "text/markdown",
        }],
      },
      "resources/templates/list": { resourceTemplates: [] },
      "resources/read": {
        contents: [{ uri: "skill://evil-skill", mimeType: "text/markdown", text: SKILL }],
      },
    };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(rpcResult(rpc, results[rpc.method] ?? {})));
  };
}

let server: FaultServer;
let registry: TestRegistry;
let home: Awaited<ReturnType<typeof tempHome>>;
const state = { down: false };

function assertClean(out: Result, what: string): void {
  assert.doesNotMatch(out.stdout, RAW, `${what}: raw control on stdout: ${JSON.stringify(out)}`);
  assert.doesNotMatch(out.stderr, RAW, `${what}: raw control on stderr: ${JSON.stringify(out)}`);
}

before(async () => {
  server = await startFaultServer();
  server.lifecycle = true;
  server.fallback = hostile(state);
  registry = await startRegistry();
  home = await tempHome();
});
after(async () => {
  await server.close();
  await registry.close();
  await home.close();
});

describe("terminal escapes from outside are shown, not obeyed (NO_COLOR=1, subprocess)", () => {
  test("mcp add and mcp ping: the server's name and version", async () => {
    const added = await sub(["mcp", "add", server.url, "--name", "evil"], home.env);
    assert.equal(added.code, 0, added.stderr);
    assertClean(added, "mcp add");
    assert.ok(added.stdout.includes("evil\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m"));
    const pinged = await sub(["mcp", "ping", "evil"], home.env);
    assert.equal(pinged.code, 0, pinged.stderr);
    assertClean(pinged, "mcp ping");
    assert.ok(pinged.stdout.includes("v6.6\\u001b]0;pwned"));
  });

  test("with colours on, only the CLI's own styles are escape sequences", async () => {
    const { NO_COLOR: _, ...coloured } = home.env;
    const pinged = await cli(["mcp", "ping", "evil"], coloured, { color: true });
    assert.equal(pinged.code, 0, pinged.stderr);
    assert.ok(pinged.stdout.includes("\x1b[32m✓\x1b[39m"), JSON.stringify(pinged.stdout));
    const foreign = pinged.stdout.replaceAll("\x1b[32m", "").replaceAll("\x1b[39m", "");
    assert.doesNotMatch(foreign, RAW, JSON.stringify(pinged.stdout));
  });

  test("skill list and skill show: a remote skill's description, front matter and body", async () => {
    const listed = await sub(["skill", "list"], home.env);
    assert.equal(listed.code, 0, listed.stderr);
    assertClean(listed, "skill list");
    assert.match(listed.stdout, /evil-skill/);
    const shown = await sub(["skill", "show", "evil-skill"], home.env);
    assert.equal(shown.code, 0, shown.stderr);
    assertClean(shown, "skill show");
    assert.ok(shown.stdout.includes("Evil \\u009b2J description"), shown.stdout);
    assert.ok(shown.stdout.includes("body \\u001b]0;pwned"), shown.stdout);
  });

  test("--json stays valid JSON and parses back to what the server sent", async () => {
    const shown = await sub(["skill", "show", "evil-skill", "--json"], home.env);
    assert.equal(shown.code, 0, shown.stderr);
    assertClean(shown, "skill show --json");
    assert.ok(JSON.stringify(JSON.parse(shown.stdout)).includes(JSON.stringify(EVIL).slice(1, -1)));
  });

  test("mcp list: an HTTP error body stored in STATUS", async () => {
    state.down = true;
    try {
      const pinged = await sub(["mcp", "ping", "evil"], home.env);
      assert.equal(pinged.code, 1);
      assertClean(pinged, "mcp ping (down)");
      const listed = await sub(["mcp", "list"], home.env);
      assert.equal(listed.code, 0, listed.stderr);
      assertClean(listed, "mcp list");
      assert.match(listed.stdout, /down: .*\\u001b/);
    } finally {
      state.down = false;
    }
  });

  test("skill search: a registry's description", async () => {
    setIndex(registry, [{
      name: "evil-reg",
      description: `Registry ${EVIL} text`,
      version: "1.0.0",
      digest: `sha256:${"0".repeat(64)}`,
      url: "skills/evil-reg.md",
    }]);
    const found = await sub(["skill", "search", "evil", "--registry", registry.url], home.env);
    assert.equal(found.code, 0, found.stderr);
    assertClean(found, "skill search");
    assert.ok(found.stdout.includes("Registry \\u001b]0;pwned"), found.stdout);
  });
});
