/**
 * Skills served by MCP servers: one resolver source per registered server,
 * labelled `mcp:<server-name>`. This is the one place where skills meet MCP.
 *
 * @module
 */

import { connect, type ConnectOptions } from "../mcp/client.ts";
import type { McpClient } from "../mcp/client_types.ts";
import { CircuitOpenError, isMcpError } from "../mcp/errors.ts";
import type { ServerRegistry } from "../mcp/registry/registry.ts";
import { hasSkillTemplate, type SkillResource, skillResources } from "./skill_resources.ts";
import type { McpServerConfig } from "../mcp/types.ts";
import type { SkillSource, SourceCallOptions, SourceEntry } from "./types.ts";

/** Options of {@linkcode createMcpSkillSource} and {@linkcode createMcpSkillSources}. */
export interface McpSkillSourceOptions {
  /** How long a server's resource listing is reused, in milliseconds (default 60000). */
  ttlMs?: number;
  /**
   * After a failed connection, how long the server is skipped (answering at
   * once with the last error) before the next attempt, in milliseconds
   * (default 30000). A dead server then costs nothing on warm resolves.
   */
  retryAfterMs?: number;
  /** Per-source timeout for the resolver, in milliseconds (default: the resolver's). */
  timeoutMs?: number;
  /** Options for the connection (URL policy, templating env, fetch, …). */
  connect?: ConnectOptions;
}

/** A skill source over one MCP server. */
export interface McpSkillSource extends SkillSource {
  /** The server configuration. */
  readonly server: McpServerConfig;
  /** Close the connection, if one is open. */
  dispose(): Promise<void>;
}

interface Listing {
  at: number;
  skills: Map<string, SkillResource>;
  template: boolean;
}

const NOT_FOUND = new Set([-32002, -32602]);

/**
 * A source reading skills from one MCP server: `skill://<name>` resources
 * (also `skill://<name>/SKILL.md`, `…/<name>/SKILL.md` and `text/markdown`
 * resources named after the skill). The resource listing is cached for
 * `ttlMs`, so a warm lookup costs at most one request; servers with a
 * `skill://{name}` template are asked for unlisted skills directly.
 *
 * @example
 * ```ts
 * import { createBuiltinSource, createMcpSkillSource, createResolver } from "@skillmux/core";
 * const team = createMcpSkillSource({ name: "team", url: "http://127.0.0.1:3001/mcp" });
 * const resolver = createResolver({ sources: [[team], createBuiltinSource()] });
 * console.log((await resolver.resolve("samtools")).source); // "mcp:team" when the server has it
 * await team.dispose();
 * ```
 */
export function createMcpSkillSource(
  server: McpServerConfig,
  options: McpSkillSourceOptions = {},
): McpSkillSource {
  const ttlMs = options.ttlMs ?? 60_000;
  const retryAfterMs = options.retryAfterMs ?? 30_000;
  let client: Promise<McpClient> | undefined;
  let listing: Promise<Listing> | undefined;
  let down: { until: number; reason: string } | undefined;

  function session(signal: AbortSignal): Promise<McpClient> {
    if (down && Date.now() < down.until) {
      const wait = down.until - Date.now();
      return Promise.reject(
        new CircuitOpenError(
          `${down.reason} (skipped; next attempt in ${Math.ceil(wait / 1000)} s)`,
          wait,
          {
            server: server.name,
          },
        ),
      );
    }
    client ??= connect(server, { ...options.connect, signal });
    const pending = client;
    pending.then(() => (down = undefined), (error) => {
      if (client === pending) client = undefined;
      if (!signal.aborted) {
        down = { until: Date.now() + retryAfterMs, reason: (error as Error).message };
      }
    });
    return pending;
  }

  async function list(signal: AbortSignal): Promise<Listing> {
    const current = listing;
    if (current && Date.now() - (await current.catch(() => ({ at: -Infinity }))).at < ttlMs) {
      return current;
    }
    const next = (async () => {
      const c = await session(signal);
      const hasResources = Boolean(c.capabilities.resources);
      const [resources, templates] = hasResources
        ? await Promise.all([
          c.listResources({ signal }),
          c.listResourceTemplates({ signal }).catch(() => []),
        ])
        : [[], []];
      const skills = new Map(skillResources(resources).map((s) => [s.name, s]));
      return { at: Date.now(), skills, template: hasSkillTemplate(templates) };
    })();
    listing = next;
    next.catch(() => {
      if (listing === next) listing = undefined;
    });
    return await next;
  }

  return {
    label: `mcp:${server.name}`,
    server,
    timeoutMs: options.timeoutMs,
    async get(name: string, { signal }: SourceCallOptions): Promise<SourceEntry | undefined> {
      const found = await list(signal);
      const uri = found.skills.get(name)?.uri ?? (found.template ? `skill://${name}` : undefined);
      if (uri === undefined) return undefined;
      try {
        const contents = await (await session(signal)).readResource(uri, { signal });
        const text = contents.find((c) => typeof c.text === "string" && c.text !== "")?.text;
        return text === undefined ? undefined : { text, format: "markdown", location: uri };
      } catch (error) {
        if (
          isMcpError(error, "RpcError") &&
          NOT_FOUND.has((error as unknown as { code: number }).code)
        ) {
          return undefined;
        }
        throw error;
      }
    },
    async list({ signal }: SourceCallOptions): Promise<string[]> {
      return [...(await list(signal)).skills.keys()];
    },
    async dispose(): Promise<void> {
      const open = client;
      client = undefined;
      listing = undefined;
      down = undefined;
      if (open) await (await open.catch(() => undefined))?.close();
    },
  };
}

/**
 * One source per enabled server of `registry`, in registration order. Use them
 * as one group (`[...sources]`) so the servers are asked in parallel and the
 * answer follows registration order.
 *
 * @example
 * ```ts
 * import { createBuiltinSource, createMcpSkillSources, createResolver, createServerRegistry, createMemoryStorage } from "@skillmux/core";
 * const registry = createServerRegistry({ storage: createMemoryStorage() });
 * const mcp = await createMcpSkillSources(registry);
 * const resolver = createResolver({ sources: [mcp, createBuiltinSource()] });
 * console.log((await resolver.resolve("bwa")).source);
 * ```
 */
export async function createMcpSkillSources(
  registry: ServerRegistry,
  options: McpSkillSourceOptions = {},
): Promise<McpSkillSource[]> {
  const servers = (await registry.list()).filter((s) => s.enabled !== false);
  return servers.map((server) => createMcpSkillSource(server, options));
}
