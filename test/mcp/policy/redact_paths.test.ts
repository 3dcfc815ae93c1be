// The API key and header secrets never leave connect() in an error, a log line or a
// notification, whatever path a server's echo of them takes: an error answer with an id (JSON
// and SSE), an id-less one, an HTTP error (status text and body), a body that is not JSON, the
// legacy HTTP+SSE transport, the 2026-07-28 stateless session, log notifications, the client's
// own log lines; and over stdio, an env secret on stderr, in a banner and in error answers.
// Also server-chosen origins (a redirect, a legacy endpoint) named after a secret.
// Real servers throughout: node:http on 127.0.0.1 and a child process.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { isMcpError } from "../../../lib/mcp/protocol/errors.ts";
import { REDACTED } from "../../../lib/mcp/policy/redact.ts";
import { createStdioTransport, type StdioTransport } from "../../../lib/mcp/transport/stdio.ts";
import type { JsonRpcNotification, McpServerConfig } from "../../../lib/mcp/protocol/types.ts";
import { type EchoForm, startEchoServer } from "../_echo_server.ts";
import { legacy, redirect, startFaultServer } from "../_fault_server.ts";
import { API_KEY, assertNoLeak, ENV_SECRET, HEADER_SECRET, rejectionOf } from "../_leak.ts";
import { fixture, ROOT } from "../_stdio_helpers.ts";

const SECRETS = [API_KEY, HEADER_SECRET];

function config(url: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name: "echo", url, apiKey: API_KEY, headers: { "X-Api-Key": HEADER_SECRET }, ...extra };
}

/** Connect, list tools, and return what failed plus every log line and notification. */
async function failure(
  era: "legacy" | "modern",
  form: EchoForm,
  failOn = "tools/list",
): Promise<{ error: Error; logs: string[]; notes: JsonRpcNotification[]; echoes: number }> {
  const server = await startEchoServer({ era, form, failOn });
  const logs: string[] = [];
  const notes: JsonRpcNotification[] = [];
  try {
    const error = await rejectionOf((async () => {
      const client = await connect(
        config(server.url, form === "legacy" ? { transport: "sse" } : {}),
        {
          timeoutMs: 5_000,
          listen: false,
          log: (line) => logs.push(line),
          onNotification: (note) => notes.push(note),
          http: { retries: 0, log: (line) => logs.push(line) },
        },
      );
      try {
        await client.listTools();
      } finally {
        await client.close();
      }
    })());
    return { error, logs, notes, echoes: server.echoes };
  } finally {
    await server.close();
  }
}

/** The error names the failure, shows the marker where the key was, and leaks nothing. */
function assertRedacted(got: Awaited<ReturnType<typeof failure>>, name: string): void {
  const { error, logs, notes, echoes } = got;
  assert.ok(echoes > 0, "the server echoed the credentials");
  assert.equal(error.name, name, `${error.name}: ${error.message}`);
  assertNoLeak(error, SECRETS, "the error");
  assertNoLeak(logs, SECRETS, "the log");
  assertNoLeak(notes, SECRETS, "the notifications");
}

const CASES: Array<[string, "legacy" | "modern", EchoForm, string]> = [
  ["an error answer with an id, as JSON (2025-11-25)", "legacy", "json", "RpcError"],
  ["an error answer with an id, in an SSE answer (2025-11-25)", "legacy", "sse", "RpcError"],
  ["an id-less error answer (2025-11-25)", "legacy", "idless", "ProtocolError"],
  [
    "an HTTP 401 with the key in the status text and a JSON-RPC body",
    "legacy",
    "http",
    "HttpError",
  ],
  ["a JSON answer that is not JSON (the parse error's snippet)", "legacy", "text", "ProtocolError"],
  ["an error body whose 4 KiB read limit cuts the key in two", "legacy", "padded", "HttpError"],
  ["the legacy HTTP+SSE transport (2024-11-05)", "legacy", "legacy", "RpcError"],
  ["an error answer with an id (2026-07-28, stateless)", "modern", "json", "RpcError"],
  ["an error answer in an SSE answer (2026-07-28)", "modern", "sse", "RpcError"],
  [
    "an HTTP 401 whose JSON-RPC body becomes the RpcError (2026-07-28)",
    "modern",
    "http",
    "RpcError",
  ],
  ["an id-less error answer (2026-07-28)", "modern", "idless", "ProtocolError"],
];

for (const [what, era, form, name] of CASES) {
  test(`no secret leaks through ${what}`, async () => {
    const got = await failure(era, form);
    assertRedacted(got, name);
    if (name === "RpcError" && isMcpError(got.error, "RpcError")) {
      assert.equal(got.error.rpcCode, -32001);
      assert.match(got.error.message, /invalid api key \[redacted\]/);
      const data = got.error.data as Record<string, unknown>;
      assert.equal(data.token, REDACTED, "data keeps its shape, the secret replaced");
      assert.equal(data[REDACTED], "the key as an object key");
    }
    if (form === "padded" && isMcpError(got.error, "HttpError")) {
      assert.equal(got.error.status, 500);
      assert.match(got.error.body, /^\[redacted\]$/, "the cut fragment of the key is redacted");
    }
    if (form === "http" && isMcpError(got.error, "HttpError")) {
      assert.equal(got.error.status, 401);
      assert.equal(got.error.rpc?.code, -32001);
      // Node's fetch keeps the server's reason phrase (here with the token); Deno's gives the standard one.
      assert.match(
        got.error.message,
        /^echo: POST http:\/\/127\.0\.0\.1:\d+\/\S+ answered HTTP 401 Unauthorized( \[redacted\])?: \{/,
      );
    }
  });
}

test("no secret leaks from an echo of initialize, while connecting (both HTTP transports)", async () => {
  assertRedacted(await failure("legacy", "json", "initialize"), "RpcError");
  assertRedacted(await failure("legacy", "legacy", "initialize"), "RpcError");
});

test("a log notification echoing the key reaches onNotification redacted", async () => {
  const got = await failure("legacy", "sse");
  const log = got.notes.find((note) => note.method === "notifications/message");
  assert.ok(log, "the log notification arrived");
  const params = log.params as { data: { message: string } };
  assert.match(params.data.message, /invalid api key \[redacted\]/);
  assertNoLeak(got.notes, SECRETS, "the notifications");
});

test("a log notification on the standalone GET stream reaches onNotification redacted", async () => {
  const server = await startEchoServer({ era: "legacy", form: "stream" });
  const notes: JsonRpcNotification[] = [];
  let heard!: () => void;
  const arrived = new Promise<void>((resolve) => (heard = resolve));
  const client = await connect(config(server.url), {
    timeoutMs: 5_000,
    listen: true,
    onNotification: (note) => {
      notes.push(note);
      heard();
    },
  });
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("no notification within 5 s")), 5_000);
    });
    await Promise.race([arrived, late]).finally(() => clearTimeout(timer));
    const params = notes[0].params as { data: { message: string } };
    assert.match(params.data.message, /invalid api key \[redacted\]/);
    assertNoLeak(notes, SECRETS, "the notifications");
  } finally {
    await client.close();
    await server.close();
  }
});

test("the client's own log line about a tool named after the key is redacted", async () => {
  const server = await startEchoServer({ era: "modern", form: "log" });
  const logs: string[] = [];
  try {
    const client = await connect(config(server.url), {
      timeoutMs: 5_000,
      listen: false,
      log: (line) => logs.push(line),
    });
    try {
      assert.deepEqual(await client.listTools(), []);
    } finally {
      await client.close();
    }
    assert.ok(server.echoes > 0);
    const line = logs.find((l) => l.includes("left out tool"));
    assert.ok(line, `a line about the tool, in ${JSON.stringify(logs)}`);
    assert.ok(line.includes(REDACTED), line);
    assertNoLeak(logs, SECRETS, "the log");
  } finally {
    await server.close();
  }
});

test("stdio: an env secret on stderr, in a banner, a log and error answers never leaks", async () => {
  const diagnostics: string[] = [];
  const logs: string[] = [];
  const notes: JsonRpcNotification[] = [];
  let transport: StdioTransport | undefined;
  const client = await connect(
    {
      name: "echo-secret",
      ...fixture("echo_secret.ts"),
      cwd: ROOT,
      env: { SERVICE_TOKEN: ENV_SECRET },
    },
    {
      timeoutMs: 20_000,
      listen: false,
      log: (line) => logs.push(line),
      onNotification: (note) => notes.push(note),
      stdio: (server) => (transport = createStdioTransport(server, {
        onDiagnostic: (line) => diagnostics.push(line),
      })),
    },
  );
  try {
    const listed = await rejectionOf(client.listTools());
    assert.equal(listed.name, "RpcError");
    assert.match(listed.message, /invalid token \[redacted\]/);
    assertNoLeak(listed, [ENV_SECRET], "the tools/list error");

    const exited = await rejectionOf(client.callTool("anything"));
    assert.equal(exited.name, "NetworkError");
    assert.match(exited.message, /exited with code 3/);
    assert.match(exited.message, /fatal: token \[redacted\] rejected/);
    assertNoLeak(exited, [ENV_SECRET], "the exit error");

    const tail = transport!.stderrTail();
    assert.ok(tail.some((line) => line === `starting with token ${REDACTED}`), tail.join("\n"));
    assert.ok(tail.some((line) => line.startsWith("x".repeat(990) + REDACTED)), "long line");
    assertNoLeak(tail, [ENV_SECRET], "stderrTail()");

    assert.ok(diagnostics.some((d) => d.includes("not JSON") && d.includes(REDACTED)), "banner");
    assert.ok(diagnostics.some((d) => d.includes("without an id") && d.includes(REDACTED)));
    assertNoLeak(diagnostics, [ENV_SECRET], "the diagnostics");
    assert.ok(notes.some((n) => n.method === "notifications/message"), "the log notification");
    assertNoLeak(notes, [ENV_SECRET], "the notifications");
    assertNoLeak(logs, [ENV_SECRET], "the log");
  } finally {
    await client.close();
  }
});

// A secret that can be a host name (lower case: URLs lower-case host names).
const HOST_SECRET = "hostsecret4711";

test("a redirect to another origin named after a secret is refused without naming it", async () => {
  const fault = await startFaultServer();
  fault.script(redirect(307, `http://${HOST_SECRET}.evil.example/mcp`));
  try {
    const error = await rejectionOf(
      connect({ name: "echo", url: fault.url, headers: { "X-Api-Key": HOST_SECRET } }, {
        timeoutMs: 5_000,
        listen: false,
      }),
    );
    assert.equal(error.name, "PolicyError");
    assert.match(error.message, /another origin \(http:\/\/\[redacted\]\.evil\.example\)/);
    assertNoLeak(error, [HOST_SECRET], "the error");
  } finally {
    await fault.close();
  }
});

test("a legacy endpoint event on another origin named after a secret is refused without naming it", async () => {
  const fault = await startFaultServer();
  fault.fallback = legacy({ endpoint: `http://${HOST_SECRET}.evil.example/messages` });
  try {
    const error = await rejectionOf(
      connect({
        name: "echo",
        url: fault.url,
        transport: "sse",
        headers: { "X-Api-Key": HOST_SECRET },
      }, { timeoutMs: 5_000, listen: false }),
    );
    assert.equal(error.name, "PolicyError");
    assert.match(error.message, /another origin \(http:\/\/\[redacted\]\.evil\.example\)/);
    assertNoLeak(error, [HOST_SECRET], "the error");
  } finally {
    await fault.close();
  }
});
