// Private: the loopback redirect receiver of `mcp login` (RFC 8252 §7.3): an HTTP server on
// 127.0.0.1, port chosen by the OS, path /callback, that takes one redirect and closes.

import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import process from "node:process";
import { CliError } from "./_args.ts";

/** A listening receiver. */
export interface Loopback {
  /** `http://127.0.0.1:<port>/callback`. */
  redirectUri: string;
  /** The redirect URL the browser brought (with code and state). */
  wait(): Promise<URL>;
  close(): Promise<void>;
}

const PAGE = "<!doctype html><meta charset=utf-8><title>skillmux</title>" +
  "<p>skillmux received the sign-in. You can close this tab and return to the terminal.</p>";

/** Listen on 127.0.0.1:0; `wait()` rejects after `timeoutMs`. */
export async function startLoopback(timeoutMs: number): Promise<Loopback> {
  let deliver!: (url: URL) => void;
  const arrived = new Promise<URL>((resolve) => (deliver = resolve));
  let base = "";
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", base);
    if (req.method !== "GET" || url.pathname !== "/callback") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", connection: "close" });
    res.end(PAGE);
    deliver(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    redirectUri: `${base}/callback`,
    async wait() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new CliError(`No sign-in arrived within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
      });
      try {
        return await Promise.race([arrived, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** Try to open `url` in the user's browser; failures are ignored (the URL is printed too). */
export async function openBrowser(url: string): Promise<void> {
  const { spawn } = await import("node:child_process");
  const [cmd, args] = process.platform === "darwin"
    ? ["open", [url]]
    : process.platform === "win32"
    ? ["cmd", ["/c", "start", "", url]]
    : ["xdg-open", [url]];
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch { /* no opener: the printed URL is enough */ }
}
