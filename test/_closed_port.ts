// A port on 127.0.0.1 that nothing listens on, for "dead server" tests: listen on port 0, note
// the port the system gave, close it. Unlike a fixed port (9, 1, …), it is known to be closed a
// moment ago on this machine, whatever else runs here, and no browser refuses it as unsafe.
import net from "node:net";

/** A port on 127.0.0.1 that was free and is now closed (connections to it are refused). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `http://127.0.0.1:<closed port><path>`: a server URL that refuses connections. */
export async function deadUrl(path = "/mcp"): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}${path}`;
}
