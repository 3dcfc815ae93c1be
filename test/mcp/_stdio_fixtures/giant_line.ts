// Writes one stdout line of argv[2] bytes (no newline until the end), then stays alive.
import process from "node:process";

const size = Number(process.argv[2] ?? 5 * 1024 * 1024);
process.stdout.write(`{"jsonrpc":"2.0","method":"x","params":{"pad":"${"a".repeat(size)}"}}\n`);
setInterval(() => {}, 60_000);
