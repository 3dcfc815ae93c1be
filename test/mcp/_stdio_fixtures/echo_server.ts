// A tiny newline-delimited JSON-RPC server for the stdio transport tests.
// Flags: `banner` prints a non-JSON line first; `wrong-id` answers every request
// with a wrong id before the right answer (or instead of it, for `silent`).
import process from "node:process";
import { createInterface } from "node:readline";

type Message = {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown> & { _meta?: { progressToken?: string | number } };
};

const flags = new Set(process.argv.slice(2));
const send = (message: unknown): void => {
  process.stdout.write(`${JSON.stringify(message)}\n`);
};
const answers = new Map<string, (message: unknown) => void>();
let asked = 0;

if (flags.has("banner")) {
  process.stdout.write("Fixture server v1.0 starting (this line is not JSON)\n");
}

async function handle({ id, method, params }: Message): Promise<void> {
  const result = (value: Record<string, unknown>): void =>
    send({ jsonrpc: "2.0", id, result: value });
  if (flags.has("wrong-id")) {
    send({
      jsonrpc: "2.0",
      id: typeof id === "number" ? id + 1000 : `${id}-wrong`,
      result: { wrong: true },
    });
  }
  switch (method) {
    case "echo":
      return result({ echo: params ?? null });
    case "env":
      return result({ env: { ...process.env } });
    case "silent":
      return;
    case "fail":
      return send({
        jsonrpc: "2.0",
        id,
        error: { code: -32000, message: "it failed", data: { x: 1 } },
      });
    case "no-result":
      return send({ jsonrpc: "2.0", id });
    case "progress": {
      const progressToken = params?._meta?.progressToken;
      for (let i = 1; i <= 3; i++) {
        send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken, progress: i, total: 3 },
        });
      }
      return result({ done: true });
    }
    case "notify":
      send({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "hello" },
      });
      return result({});
    case "batch":
      return send([{ jsonrpc: "2.0", id, result: { batched: true } }]);
    case "ask": {
      const serverId = `s${++asked}`;
      const answer = await new Promise((resolve) => {
        answers.set(serverId, resolve);
        send({ jsonrpc: "2.0", id: serverId, method: params?.method });
      });
      return result({ answer });
    }
    case "stderr":
      process.stderr.write(`${params?.text}\n`);
      return result({});
    case "exit":
      process.stderr.write("exiting on request\n");
      process.exit(Number(params?.code ?? 5));
      return;
    default:
      return send({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line) as Message & { result?: unknown; error?: unknown };
  if (message.method === undefined) {
    answers.get(String(message.id))?.(message);
  } else if (message.id !== undefined) {
    void handle(message);
  } else if (message.method === "notifications/cancelled") {
    process.stderr.write(`cancelled ${JSON.stringify(message.params)}\n`);
  }
});
lines.on("close", () => process.exit(0));
