// A minimal MCP server over stdio that never answers `tools/call` and appends every
// `notifications/cancelled` it receives, as a JSON line, to the file named by its first argument.
import { appendFileSync } from "node:fs";
import process from "node:process";
import { createInterface } from "node:readline";

const log = process.argv[2];
const send = (message: unknown): void => {
  process.stdout.write(`${JSON.stringify(message)}\n`);
};

createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (method === "initialize") {
    send({
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "cancel-probe", version: "1.0.0" },
      },
    });
  } else if (method === "notifications/cancelled") {
    appendFileSync(log, `${JSON.stringify(params)}\n`);
  } else if (method === "tools/list") {
    send({
      jsonrpc: "2.0",
      id,
      result: { tools: [{ name: "wait", inputSchema: { type: "object" } }] },
    });
  } else if (id !== undefined && method !== "tools/call") {
    send({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  }
});
