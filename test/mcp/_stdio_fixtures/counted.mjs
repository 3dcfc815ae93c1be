// Runs a real stdio MCP server (a Node program from npm) in this process, counting its starts
// and how it ended: `node counted.mjs <log> <server.js> [args…]` appends `start <pid>` to <log>
// when it starts and `term <pid>` if it gets SIGTERM (it then exits as Node would by default).
import { appendFileSync } from "node:fs";
import process from "node:process";
import { pathToFileURL } from "node:url";

const [log, entry, ...args] = process.argv.slice(2);
appendFileSync(log, `start ${process.pid}\n`);
process.on("SIGTERM", () => {
  appendFileSync(log, `term ${process.pid}\n`);
  process.exit(143);
});
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(entry).href);
