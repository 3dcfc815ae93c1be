// A minimal 2025-11-25 MCP server over stdio for what server-everything does not do: its tool
// `job` runs as a task that the server cancels (`cancel`), that fails (`fail`), whose tasks/get
// never answers (`hang`); its tool `storm` sends 5,000 progress notifications, answers, then
// sends more progress for the finished request. The mode is the first argument.
import process from "node:process";
import { createInterface } from "node:readline";

const mode = process.argv[2];
const send = (message: unknown): void => {
  process.stdout.write(`${JSON.stringify(message)}\n`);
};
const task = (status: string, statusMessage?: string) => ({
  taskId: "t-1",
  status,
  ...(statusMessage ? { statusMessage } : {}),
  ttl: 60_000,
  createdAt: "2026-01-01T00:00:00Z",
  lastUpdatedAt: "2026-01-01T00:00:00Z",
  pollInterval: 50,
});
let polls = 0;

createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  const result = (value: unknown) => send({ jsonrpc: "2.0", id, result: value });
  if (method === "initialize") {
    return result({
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } },
      serverInfo: { name: "task-stub", version: "1.0.0" },
    });
  }
  if (method === "tools/list") {
    return result({
      tools: [
        { name: "job", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
        { name: "storm", inputSchema: { type: "object" } },
      ],
    });
  }
  if (method === "tools/call" && params.name === "storm") {
    const progressToken = params._meta?.progressToken;
    const progress = (n: number) =>
      send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken, progress: n },
      });
    for (let n = 1; n <= 5_000; n++) progress(n);
    result({ content: [{ type: "text", text: "storm over" }] });
    for (let n = 5_001; n <= 5_010; n++) progress(n);
    return;
  }
  if (method === "tools/call") return result({ task: task("working", "starting") });
  if (method === "tasks/get") {
    if (mode === "hang") return;
    polls++;
    if (polls < 3) return result(task("working", `step ${polls}`));
    if (mode === "cancel") return result(task("cancelled", "the operator stopped it"));
    return result(task("failed", "out of disk"));
  }
  if (method === "tasks/result") {
    return result({ content: [{ type: "text", text: "out of disk" }], isError: true });
  }
  if (method === "tasks/cancel") return result(task("cancelled"));
  if (id !== undefined) {
    send({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  }
});
