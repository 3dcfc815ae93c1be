// Turn a failure into words a person can act on: refused, timeout, HTTP status, policy, or CORS.
const CORS_HEADERS =
  "Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name";

/** Whether anything answers at `url`: an opaque `no-cors` request succeeds when a server is up. */
export async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { mode: "no-cors", signal: AbortSignal.timeout(3_000) });
    return true;
  } catch {
    return false;
  }
}

export async function explain(
  error: unknown,
  url?: string,
  headers: readonly string[] = [],
): Promise<string> {
  const e = error as { name?: string; message?: string; status?: number; field?: string };
  const message = e?.message ?? String(error);
  const name = e?.name ?? "";
  // Before the policy case: the library's advice (pass stdio()) is meant for code, not a page.
  if (/is a stdio server/.test(message)) {
    return `${message.split(":")[0]}: a page cannot start processes. Run it as a Streamable HTTP server and add its URL ` +
      `(tick "via the npm start relay" if it sends no CORS headers), or restart npm start with RELAY_STDIO=1 and ` +
      `add it again (under "Add a stdio server", or paste it): the relay then starts it.`;
  }
  // The relay's own words (refusals, stdio off): already meant for a person.
  if (/npm start relay|RELAY_STDIO/.test(message)) return message;
  if (name === "PolicyError" || /policy/i.test(name)) {
    return `Refused before sending anything: ${message}`;
  }
  if (name === "TimeoutError") return `Timed out: the server did not answer in time. ${message}`;
  if (name === "HttpError") return `The server answered HTTP ${e.status ?? ""}: ${message}`;
  if ((name === "NetworkError" || /fetch|network/i.test(message)) && url) {
    if (await answers(url)) {
      const allow = [CORS_HEADERS, ...headers].join(", ");
      return `CORS blocked: ${url} answers, but not to this page's origin (${location.origin}). ` +
        `The server must send Access-Control-Allow-Origin: ${location.origin}, ` +
        `Access-Control-Allow-Headers: ${allow}, and Access-Control-Expose-Headers: Mcp-Session-Id. ` +
        `Or route it "via the npm start relay" (a checkbox when adding it, a button on its card).`;
    }
    return `Connection refused or unreachable: nothing answers at ${url}. Is the server running, and is the URL right?`;
  }
  return `${name ? name + ": " : ""}${message}`;
}
