// Helpers for the skills server tests: a skill document and a raw JSON-RPC POST.

/** A valid skill document. */
export const skillDoc = (name: string, description: string, tags: string[] = []): string =>
  `---\nname: ${name}\ndescription: ${description}\ntags: [${
    tags.join(", ")
  }]\n---\n\n## Concepts\n\n- One.\n`;

/** The `initialize` request as JSON. */
export const INITIALIZE: string = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
});

/** POST `body` (default: initialize) to `url` with JSON-only Accept and extra `headers`. */
export function post(
  url: string,
  headers: Record<string, string> = {},
  body: string = INITIALIZE,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body,
  });
}
