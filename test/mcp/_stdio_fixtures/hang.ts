// Reads nothing, answers nothing, stays alive. With `ignore-sigterm` it also survives SIGTERM.
import process from "node:process";

if (process.argv.includes("ignore-sigterm")) {
  process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
}
process.stderr.write("hanging\n");
setInterval(() => {}, 60_000);
