// A scripted OAuth endpoint on 127.0.0.1 for the grant and DPoP tests: it answers `answers` in
// turn (the last one again after) whatever the path, and records each request's method, path,
// Authorization and DPoP headers and form body. No checks of its own: the tests read what came.
//
// withTokenEndpoint([{ status, body, headers }], async (ctx, requests) => { ... })
//   ctx: a GrantContext whose token endpoint is this server (server name "docs").

import http from "node:http";
import type { GrantContext } from "../../lib/mcp/auth/_grants.ts";
import type { AuthorizationServerMetadata } from "../../lib/mcp/auth/discovery.ts";
import { listenLocal } from "./_servers.ts";

/** One request the endpoint received. */
export interface TokenRequest {
  method: string;
  path: string;
  authorization?: string;
  dpop?: string;
  /** The body as sent, and read as a form. */
  text: string;
  form: URLSearchParams;
}

/** One scripted answer: JSON of `body` (or `body` itself when a string), 200 by default. */
export interface ScriptedAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Run `fn` against a fresh endpoint answering `answers`; the endpoint closes after. */
export async function withTokenEndpoint(
  answers: ScriptedAnswer[],
  fn: (ctx: GrantContext & { url: string }, requests: TokenRequest[]) => Promise<void>,
): Promise<void> {
  const requests: TokenRequest[] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        authorization: req.headers.authorization,
        dpop: req.headers.dpop as string | undefined,
        text,
        form: new URLSearchParams(text),
      });
      const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
      res.writeHead(answer.status ?? 200, {
        "content-type": "application/json",
        ...answer.headers,
      });
      res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    });
  });
  const listening = await listenLocal(server);
  const url = `http://127.0.0.1:${listening.port}`;
  try {
    await fn({
      as: { issuer: url, token_endpoint: `${url}/token` } as AuthorizationServerMetadata,
      fetch,
      server: "docs",
      resource: "http://127.0.0.1:9/mcp",
      url,
    }, requests);
  } finally {
    await listening.close();
  }
}

/** The JSON of part `index` (0 header, 1 claims) of a compact JWT. */
export function jwtPart(jwt: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(atob(jwt.split(".")[index].replace(/-/g, "+").replace(/_/g, "/")));
}
