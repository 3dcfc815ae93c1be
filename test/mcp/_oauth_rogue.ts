// A rogue authorization server on 127.0.0.1 port 0: what a protected-resource metadata document
// may name after the user signed in elsewhere. It records every request in full (method, path,
// Authorization header, body) so a test can assert that credentials of another issuer never
// reached it, and it runs a working sign-in of its own (metadata, registration, an /authorize
// that approves at once, /token), adding the access tokens it issues to `accept` (the MCP
// server's set of valid tokens), so a client that signs in again here gets through.
//
// startRogueAuthorizationServer({ accept, metadata, redirect, huge }) → { issuer, seen, sent, close() }
//   - `metadata` (read per request): fields merged over its RFC 8414 document, e.g. an
//     `authorization_endpoint` of `javascript:…`.
//   - `redirect`: path → Location; that path answers 302 there (a metadata URL that redirects).
//   - `huge`: a path whose answer is a 40 MB JSON document streamed in 64 KB chunks without a
//     Content-Length; it stops as soon as the client hangs up. `sent.bytes` counts what went out,
//     `sent.cut` says the client hung up before the end. Read per request: a test may set it
//     after a sign-in (to make the refresh or the revocation answer huge).
//   - /token issues a refresh token too and takes refresh_token and client_credentials grants;
//     /revoke (advertised when `metadata` names it) answers 200.

import { randomUUID } from "node:crypto";
import http from "node:http";
import { listenLocal } from "./_servers.ts";

/** One request the rogue server received. */
export interface SeenRequest {
  method: string;
  path: string;
  /** The path with its query. */
  target: string;
  authorization?: string;
  body: string;
}

/** The running rogue server. */
export interface RogueServer {
  issuer: string;
  /** Every request, in order. */
  seen: SeenRequest[];
  /** Bytes of the `huge` answer written before the client hung up (or all 40 MB); `cut`: it did. */
  sent: { bytes: number; cut: boolean };
  close(): Promise<void>;
}

/**
 * Everything the rogue server received, as text a test can search for a credential: the log
 * with each `Basic` header decoded too.
 */
export function received(rogue: RogueServer): string {
  const basics = rogue.seen.map((r) => /^Basic (.+)$/i.exec(r.authorization ?? "")?.[1])
    .filter((b) => b !== undefined).map((b) => decodeURIComponent(atob(b!)));
  return JSON.stringify(rogue.seen) + "\n" + basics.join("\n");
}

/** Start the rogue authorization server. */
export async function startRogueAuthorizationServer(options: {
  accept?: Set<string>;
  metadata?: Record<string, unknown>;
  redirect?: Record<string, string>;
  huge?: string;
} = {}): Promise<RogueServer> {
  const seen: SeenRequest[] = [];
  const sent = { bytes: 0, cut: false };
  let issuer = "";
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    let body = "";
    for await (const chunk of req) body += chunk;
    seen.push({
      method: req.method ?? "",
      path: url.pathname,
      target: req.url ?? "",
      authorization: req.headers.authorization,
      body,
    });
    // A rogue server wants to be reached, from a browser page too.
    res.setHeader("access-control-allow-origin", "*");
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-methods": "GET, POST, OPTIONS",
        "access-control-allow-headers": "content-type, accept, authorization, dpop",
      }).end();
      return;
    }
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    const location = options.redirect?.[url.pathname];
    if (location !== undefined) {
      res.writeHead(302, { location }).end();
      return;
    }
    if (url.pathname === options.huge) {
      await streamHuge(res, sent);
      return;
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
        ...options.metadata,
      });
    }
    if (url.pathname === "/register" && req.method === "POST") {
      return json(201, { ...JSON.parse(body), client_id: `rogue-${randomUUID()}` });
    }
    if (url.pathname === "/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", randomUUID());
      back.searchParams.set("state", url.searchParams.get("state")!);
      back.searchParams.set("iss", issuer);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const access = `rogue-at-${randomUUID()}`;
      options.accept?.add(access);
      return json(200, {
        access_token: access,
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: `rogue-rt-${randomUUID()}`,
      });
    }
    if (url.pathname === "/revoke" && req.method === "POST") return void res.writeHead(200).end();
    res.writeHead(404).end();
  });
  const listening = await listenLocal(server);
  issuer = `http://127.0.0.1:${listening.port}`;
  return { issuer, seen, sent, close: listening.close };
}

/** 40 MB of one JSON string member, 64 KB a write, until done or the client hangs up. */
async function streamHuge(res: http.ServerResponse, sent: RogueServer["sent"]): Promise<void> {
  const total = 40 * 1024 * 1024;
  const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"access_token":"');
  let closed = false;
  let wake = () => {};
  res.on("close", () => {
    closed = true;
    wake();
  });
  res.on("drain", () => wake());
  while (sent.bytes < total && !closed) {
    sent.bytes += chunk.byteLength;
    if (!res.write(chunk)) await new Promise<void>((resolve) => (wake = resolve));
  }
  sent.cut = closed;
  if (!closed) res.end('","token_type":"Bearer"}');
}
