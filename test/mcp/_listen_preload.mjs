// Preloaded into child servers by `startEverything` (test/mcp/_servers.ts) with
// `node --import`: every `net.Server.listen` binds 127.0.0.1 only (never all
// interfaces), and the bound port is printed to stderr as
// `SKILLMUX_LISTENING <port>`, since server-everything does not print it with PORT=0.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const callback = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
  const first = args[0];
  const options = typeof first === "object" && first !== null
    ? { ...first, host: "127.0.0.1" }
    : { port: Number(first ?? 0), host: "127.0.0.1" };
  this.once("listening", () => {
    process.stderr.write(`SKILLMUX_LISTENING ${this.address().port}\n`);
  });
  return listen.call(this, options, callback);
};
