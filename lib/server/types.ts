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
  /**
   * `"http"` (default): Streamable HTTP at `/mcp`. `"stdio"`: newline-delimited JSON-RPC on this
   * process's stdin/stdout (nothing else is written to stdout); the server closes when stdin ends.
   * `host`, `port`, `token`, `allowedOrigins` and `sessions` apply to HTTP only.
   */
  transport?: "http" | "stdio";
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

/** What a skills server serves now, and what it holds but refuses (see `SkillsServer.skills`). */
export interface ServedSkills {
  /** The names served, sorted. */
  served: string[];
  /** Skills of the folder that are not served, with why (no description, YAML that does not parse, an invalid folder name). */
  refused: Array<{ name: string; reason: string }>;
}

/** A running skills server. */
export interface SkillsServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3737/mcp`; `"stdio:"` over stdio. */
  readonly url: string;
  /** The skills served now and those refused with why (the folder is read again if it changed). */
  skills(): Promise<ServedSkills>;
  /** Settles once the server has closed: after `close()`, or over stdio when stdin ends. */
  readonly closed: Promise<void>;
  /** Stop accepting, finish in-flight requests, close sessions and watchers. Idempotent. */
  close(): Promise<void>;
}
