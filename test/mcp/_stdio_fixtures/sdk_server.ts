// The MCP SDK's McpServer over stdio, behind a wrapper that behaves as real hosts meet servers:
//
//   --delay <ms>        sleep before the server starts (what `npx -y` does while it fetches),
//                       writing a line to stderr every 100 ms meanwhile
//   --pids <file>       append this process's pid to <file> when it starts (counts starts)
//   --log <file>        append `start <pid>` to <file> when it starts, `term <pid>` on SIGTERM,
//                       `exit <pid>` when it exits
//   --exit-delay <ms>   when stdin closes, exit after <ms> (default: at once, as SDK servers do)
//   --sigterm <how>     `log`: say "got SIGTERM" on stderr and exit; `ignore`: say it and stay;
//                       `slow:<ms>`: say it and exit after <ms> (a slow graceful shutdown, as
//                       git-mcp-server has: once it began, closing stdin no longer ends it)
//   --stay              do not exit when stdin closes (only a signal stops it)
//   --name <n>          the server's name (default "sdk-fixture")
//   --version <v>       the server's version (default "1.2.3")
//
// Tools: `echo` ({ text }) and `count` ({ n }, progress 1..n, 50 ms apart).
import { appendFileSync } from "node:fs";
import process from "node:process";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
};
const say = (line: string) => process.stderr.write(`${line}\n`);

const pids = option("pids");
if (pids) appendFileSync(pids, `${process.pid}\n`);

const log = option("log");
if (log) {
  appendFileSync(log, `start ${process.pid}\n`);
  process.on("SIGTERM", () => (appendFileSync(log, `term ${process.pid}\n`), process.exit(143)));
  process.on("exit", () => appendFileSync(log, `exit ${process.pid}\n`));
}

const sigterm = option("sigterm");
/** SIGTERM came: a slow shutdown is under way, and closing stdin no longer ends the process. */
let draining = false;
if (sigterm) {
  process.on("SIGTERM", () => {
    say("got SIGTERM");
    draining = true;
    if (sigterm === "log") process.exit(0);
    if (sigterm.startsWith("slow:")) {
      setTimeout(() => (say("exiting after SIGTERM"), process.exit(0)), Number(sigterm.slice(5)));
    }
  });
}

const delay = Number(option("delay") ?? 0);
if (delay > 0) {
  say(`fetching the server (${delay} ms)…`);
  const ticker = setInterval(() => say("still fetching…"), 100);
  await new Promise((resolve) => setTimeout(resolve, delay));
  clearInterval(ticker);
}

const server = new McpServer(
  { name: option("name") ?? "sdk-fixture", version: option("version") ?? "1.2.3" },
  { capabilities: { tools: {} } },
);
const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object" as const,
  properties,
  required,
});
server.server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: "echo",
      description: "Echo the text back",
      inputSchema: object({ text: { type: "string" } }, ["text"]),
    },
    {
      name: "count",
      description: "Count to n, reporting progress",
      inputSchema: object({ n: { type: "integer", minimum: 1 } }, ["n"]),
    },
  ],
}));
server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const args = (request.params.arguments ?? {}) as Record<string, unknown>;
  if (request.params.name === "echo") {
    return { content: [{ type: "text", text: String(args.text) }] };
  }
  const n = Number(args.n);
  const token = request.params._meta?.progressToken;
  for (let i = 1; i <= n; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (token !== undefined) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: i, total: n, message: `step ${i}` },
      });
    }
  }
  return { content: [{ type: "text", text: `counted to ${n}` }] };
});

const exitDelay = Number(option("exit-delay") ?? 0);
const stay = argv.includes("--stay");
process.stdin.on("end", () => {
  say("stdin closed");
  if (stay) {
    setInterval(() => {}, 60_000);
    return;
  }
  setTimeout(() => draining || process.exit(0), exitDelay);
});
await server.connect(new StdioServerTransport());
say("started");
