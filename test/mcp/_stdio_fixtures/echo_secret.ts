// A stdio MCP server that echoes its secret (env SERVICE_TOKEN) everywhere a careless server
// would: on stderr (a short line and one longer than the 1,000-character tail clip), in a stdout
// banner that is not JSON, in a log notification, an id-less error and the error answering
// `tools/list`; `tools/call` prints it on stderr and exits with code 3.
import process from "node:process";
import { createInterface } from "node:readline";

const token = process.env.SERVICE_TOKEN ?? "";
const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

process.stderr.write(`starting with token ${token}\n`);
process.stderr.write(`${"x".repeat(990)}${token}\n`);
// The token straddles the 200-character clip of the diagnostic.
process.stdout.write(`banner: ${"-".repeat(175)} token=${token}\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  let rpc: { id?: unknown; method?: string };
  try {
    rpc = JSON.parse(line);
  } catch {
    return;
  }
  if (rpc.id === undefined) return;
  const echo = {
    message: `invalid token ${token}`,
    data: { token, urlEncoded: encodeURIComponent(token), [token]: "key" },
  };
  switch (rpc.method) {
    case "initialize":
      return send({
        jsonrpc: "2.0",
        id: rpc.id,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {}, logging: {} },
          serverInfo: { name: "echo-secret", version: "1" },
        },
      });
    case "tools/list":
      send({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "error", data: echo },
      });
      send({ jsonrpc: "2.0", error: { code: -32001, ...echo } });
      return send({ jsonrpc: "2.0", id: rpc.id, error: { code: -32001, ...echo } });
    case "tools/call":
      process.stderr.write(`fatal: token ${token} rejected\n`);
      return setTimeout(() => process.exit(3), 20);
    default:
      return send({
        jsonrpc: "2.0",
        id: rpc.id,
        error: { code: -32601, message: `Method not found: ${rpc.method}` },
      });
  }
});
