/**
 * Contract of the skills server (`@skillmux/core/server`, Deno and Node).
 *
 * @module
 */

import type { Resolver } from "../resolve/types.ts";

/** Options of `serveSkills`. */
export interface ServeSkillsOptions {
  /** A folder of skills (`x.md`, `x/SKILL.md`, `x.toml`), watched for changes. Default: the built-in skills. */
  folder?: string;
  /** Or any resolver: its `list()` and `resolve()` are served (not watched). */
  resolver?: Resolver;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
  /** Port (default `0`: any free port). */
  port?: number;
  /** Require `Authorization: Bearer <token>` (401 without it). */
  token?: string;
  /** Origins allowed to call from a browser (default: loopback origins); others get 403. `"*"` allows any. */
  allowedOrigins?: readonly string[] | "*";
  /** Keep sessions (`Mcp-Session-Id`) instead of the stateless default. */
  sessions?: boolean;
  /** One line per request (method, path, JSON-RPC method, status, milliseconds) — never a secret. Default: none. */
  log?: (line: string) => void;
}

/** A running skills server. */
export interface SkillsServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3737/mcp`. */
  readonly url: string;
  /** Stop accepting, finish in-flight requests, close sessions and watchers. Idempotent. */
  close(): Promise<void>;
}
