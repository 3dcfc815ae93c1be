/**
 * Skills served by MCP servers: one resolver source per registered server, labelled
 * `mcp:<server-name>` (the host's label, never the server's self-reported name). This is the one
 * place where skills meet MCP: the skills extension (SEP-2640, `skills/list`, each `SKILL.md`
 * verified on load) or `skill://` resources; only the listing is read before a skill is asked.
 *
 * @module
 */

// Long because: one source is one closure (createMcpSkillSource) whose listing, its cache and
// refresh, and the verified loads share state that a split would have to pass around.

import { raceSignal } from "../_abort.ts";
import { connect } from "../mcp/client/client.ts";
import type { ConnectOptions } from "../mcp/client/connect_options.ts";
import type { McpClient } from "../mcp/client/client_types.ts";
import { CircuitOpenError, isMcpError } from "../mcp/protocol/errors.ts";
import type { ServerRegistry } from "../mcp/registry/registry.ts";
import { listSkillEntries, loadSkill, offersSkills } from "../mcp/skills/client.ts";
import type { SkillEntry } from "../mcp/skills/types.ts";
import type { McpServerConfig } from "../mcp/protocol/types.ts";
import { hasSkillTemplate, skillResources } from "./skill_resources.ts";
import { mcpProvenance } from "./provenance.ts";
import { safeNormalizeSkillName } from "../skill/name.ts";

/** The skill name of a skills-extension entry: the last folder of its URI (SEP-2640). */
function entryName(uri: string): string {
  const segment = /\/([^/]+)\/SKILL\.md$/.exec(uri)?.[1] ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The files part of this source, loaded with the first skill read (not on a page's first load). */
const files = () => import("./_mcp_files.ts");
import type { SkillSource, SkillSummary, SourceCallOptions, SourceEntry } from "./types.ts";

/** Options of {@linkcode createMcpSkillSource} and {@linkcode createMcpSkillSources}. */
export interface McpSkillSourceOptions {
  /**
   * How long a server's listing is reused when the server gives no `ttlMs` of its own, in
   * milliseconds (default 60000). A list-changed notification drops it at once.
   */
  ttlMs?: number;
  /**
   * After a failed connection, how long the server is skipped (answering at
   * once with the last error) before the next attempt, in milliseconds
   * (default 30000). A dead server then costs nothing on warm resolves.
   */
  retryAfterMs?: number;
  /** Per-source timeout for the resolver, in milliseconds (default: the resolver's). */
  timeoutMs?: number;
  /** Options for the connection (URL policy, templating env, `http`, `stdio`, `hint`, …). */
  connect?: ConnectOptions;
  /** Load skills whose SEP-2640 entry is `"dynamic"` (no digests). Default `false`. */
  allowDynamic?: boolean;
  /** Called when the server says its resources or skills changed (the listing is dropped first). */
  onListChanged?: () => void;
  /**
   * Keep a notification stream open (GET stream or `subscriptions/listen`) so list changes drop
   * the listing at once. Default `false`: an open stream keeps a process alive; notifications
   * that arrive on other answers drop the listing all the same, and the TTL bounds staleness.
   */
  watch?: boolean;
}

/** A skill source over one MCP server. */
export interface McpSkillSource extends SkillSource {
  /** The server configuration. */
  readonly server: McpServerConfig;
  /** Close the connection, if one is open. */
  dispose(): Promise<void>;
}

interface Listing {
  expiresAt: number;
  /** Resource URIs by skill name (resources) … */
  uris: Map<string, string>;
  /** … and the `skill://<name>/<path>` files of each, by path (resources servers only). */
  files?: Map<string, Map<string, string>>;
  /** … or SEP-2640 entries by skill name (two or more: ambiguous within the server). */
  entries?: Map<string, SkillEntry[]>;
  /** Whether names not listed may still exist (a `skill://{name}` template). */
  open: boolean;
}

const NOT_FOUND = new Set([-32002, -32602]);
const CHANGES = new Set([
  "notifications/resources/list_changed",
  "notifications/skills/list_changed",
]);

/**
 * A source reading skills from one MCP server: SEP-2640 `skills/list` entries (verified on load)
 * where the server offers them; else `skill://<name>` resources (also `skill://<name>/SKILL.md`,
 * `…/<name>/SKILL.md` and `text/markdown` resources named after the skill). The listing is cached
 * (the server's `ttlMs`, else `ttlMs`) and dropped on a list-changed notification, so a warm
 * lookup costs one read; `peek` answers from the listing, so the resolver reads only from
 * servers that can have the skill. Skills arrive as remote: their `allowed-tools` are requested,
 * never granted.
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
  /** The signal of the call whose connect `client` still is (none once it settled). */
  let connecting: AbortSignal | undefined;
  let listing: Promise<Listing> | undefined;
  let down: { until: number; reason: string } | undefined;
  // A stdio server keeps starting when a caller stops waiting (under its start-up allowance,
  // until `dispose`), and a later call finds it ready: cancelling it at the resolver's 5 s would
  // start a slow server again on every call and never see it answer. A URL's connect is a call's.
  const keepsStarting = server.command !== undefined;
  let lifetime = new AbortController();
  const changed = () => {
    listing = undefined;
    options.onListChanged?.();
  };

  function session(signal: AbortSignal): Promise<McpClient> {
    if (down && Date.now() < down.until) {
      const wait = down.until - Date.now();
      return Promise.reject(
        new CircuitOpenError(
          `${down.reason} (skipped; next attempt in ${Math.ceil(wait / 1000)} s)`,
          wait,
          { server: server.name },
        ),
      );
    }
    if (client !== undefined && keepsStarting) return raceSignal(client, signal);
    // A connect whose caller gave up is being cancelled: this call starts its own.
    if (client !== undefined && !connecting?.aborted) return client;
    const owner = keepsStarting ? lifetime.signal : signal;
    const pending = connect(server, {
      ...options.connect,
      listen: options.watch ?? false,
      signal: owner,
      onNotification(message) {
        if (CHANGES.has(message.method)) changed();
        options.connect?.onNotification?.(message);
      },
    });
    client = pending;
    connecting = keepsStarting ? undefined : signal;
    pending.then((opened) => {
      // Connected after all, though a newer call replaced it: close it rather than leave it open.
      if (client !== pending) return void opened.close().catch(() => {});
      connecting = down = undefined;
    }, (error) => {
      if (client !== pending) return;
      client = connecting = undefined;
      // Only the server's failure starts the cooldown, not the caller's cancelling.
      if (!owner.aborted) {
        down = { until: Date.now() + retryAfterMs, reason: (error as Error).message };
      }
    });
    return keepsStarting ? raceSignal(pending, signal) : pending;
  }

  async function fetchListing(signal: AbortSignal): Promise<Listing> {
    const c = await session(signal);
    if (offersSkills(c)) {
      const { skills } = await listSkillEntries(c, { signal });
      const entries = new Map<string, SkillEntry[]>();
      for (const entry of skills) {
        const name = safeNormalizeSkillName(entryName(entry.uri));
        if (name !== undefined) entries.set(name, [...entries.get(name) ?? [], entry]);
      }
      return { expiresAt: expiry(c, "skills/list"), uris: new Map(), entries, open: false };
    }
    if (!c.capabilities.resources) {
      return { expiresAt: Date.now() + ttlMs, uris: new Map(), open: false };
    }
    const [resources, templates] = await Promise.all([
      c.listResources({ signal }),
      c.listResourceTemplates({ signal }).catch(() => []),
    ]);
    const uris = new Map(skillResources(resources).map((s) => [s.name, s.uri]));
    const { resourceFiles } = await files();
    return {
      expiresAt: expiry(c, "resources/list"),
      uris,
      files: new Map([...uris.keys()].map((name) => [name, resourceFiles(resources, name)])),
      open: hasSkillTemplate(templates),
    };
  }

  function expiry(c: McpClient, method: string): number {
    const hint = c.cacheHint(method);
    return hint === undefined ? Date.now() + ttlMs : hint.receivedAt + hint.ttlMs;
  }

  async function list(signal: AbortSignal): Promise<Listing> {
    const current = listing;
    if (current && (await current.catch(() => ({ expiresAt: -Infinity }))).expiresAt > Date.now()) {
      return current;
    }
    const next = fetchListing(signal);
    listing = next;
    next.catch(() => {
      if (listing === next) listing = undefined;
    });
    return await next;
  }

  async function getEntry(
    name: string,
    entries: SkillEntry[],
    signal: AbortSignal,
    withoutFiles?: boolean,
  ): Promise<SourceEntry> {
    if (entries.length > 1) {
      throw new Error(
        `"${name}" is ambiguous on ${server.name}: ${entries.map((e) => e.uri).join(", ")}`,
      );
    }
    const c = await session(signal);
    const loaded = await loadSkill(c, entries[0], { signal, allowDynamic: options.allowDynamic });
    return {
      text: loaded.text,
      format: "markdown" as const,
      location: entries[0].uri,
      remote: true,
      ...(withoutFiles ? {} : (await files()).entryFiles(entries[0], () => session(signal))),
    };
  }

  /** Start reading `skill://<name>` on a resources server (not a SEP-2640 one); never rejects. */
  async function guess(name: string, signal: AbortSignal) {
    const c = await session(signal);
    if (offersSkills(c) || !c.capabilities.resources) return undefined;
    const reading = c.readResource(`skill://${name}`, { signal });
    reading.catch(() => {});
    return { reading };
  }

  async function read(
    uri: string,
    signal: AbortSignal,
    started?: Promise<Awaited<ReturnType<McpClient["readResource"]>>>,
  ): Promise<SourceEntry | undefined> {
    try {
      const contents = await (started ?? (await session(signal)).readResource(uri, { signal }));
      const text = contents.find((c) => typeof c.text === "string" && c.text !== "")?.text;
      return text === undefined
        ? undefined
        : { text, format: "markdown", location: uri, remote: true };
    } catch (error) {
      if (isMcpError(error, "RpcError") && NOT_FOUND.has(error.rpcCode)) return undefined;
      throw error;
    }
  }

  return {
    label: mcpProvenance(server.name),
    server,
    timeoutMs: options.timeoutMs,
    async peek(
      name: string,
      { signal, cachedOnly, listedOnly }: SourceCallOptions,
    ): Promise<boolean | undefined> {
      if (cachedOnly && listing === undefined) return undefined;
      const found = await (cachedOnly ? listing! : list(signal)).catch(() => undefined);
      if (found === undefined) return undefined;
      if (found.entries?.has(name) || found.uris.has(name)) return true;
      return found.open && !listedOnly ? undefined : false;
    },
    async get(
      name: string,
      { signal, withoutFiles }: SourceCallOptions,
    ): Promise<SourceEntry | undefined> {
      // Cold listing of a resources server: read skill://<name> while listing, so a cold lookup
      // costs one round trip after connecting, not two; the listing still decides.
      const speculative = listing === undefined ? await guess(name, signal) : undefined;
      const found = await list(signal);
      const entries = found.entries?.get(name);
      if (entries) return await getEntry(name, entries, signal, withoutFiles);
      const uri = found.uris.get(name) ?? (found.open ? `skill://${name}` : undefined);
      if (uri === undefined) return undefined;
      const entry = await read(
        uri,
        signal,
        uri === `skill://${name}` ? speculative?.reading : undefined,
      );
      const paths = found.files?.get(name);
      if (entry === undefined || withoutFiles || paths === undefined || paths.size === 0) {
        return entry;
      }
      const { readResourceFiles } = await files();
      return { ...entry, ...await readResourceFiles(name, paths, await session(signal), signal) };
    },
    async list({ signal }: SourceCallOptions): Promise<string[]> {
      const found = await list(signal);
      return [...(found.entries?.keys() ?? []), ...found.uris.keys()];
    },
    async summaries({ signal }: SourceCallOptions): Promise<SkillSummary[]> {
      const found = await list(signal);
      return [...found.entries?.values() ?? []].flatMap((entries) =>
        entries.length === 1 ? summaryOf(entries[0]) : []
      );
    },
    async dispose(): Promise<void> {
      lifetime.abort(new DOMException("the skill source was disposed", "AbortError"));
      lifetime = new AbortController();
      const open = client;
      client = connecting = undefined;
      listing = undefined;
      down = undefined;
      if (open) await (await open.catch(() => undefined))?.close();
    },
  };
}

/** The words a skillmux server adds to a `skills/list` entry (`_meta`), for keyword ranking. */
const SUMMARY_META = "io.skillmux/summary";

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
/** A front matter list, written as a list or as one string split on `separator`. */
const listOf = (value: unknown, separator: RegExp): string[] =>
  (typeof value === "string" ? value.split(separator) : strings(value)).map((t) => t.trim())
    .filter(Boolean);

/**
 * What a verified skills-extension entry says without reading `SKILL.md`: its front matter and the
 * digest of its `SKILL.md` (checked when the skill is read), plus concepts and example tasks when
 * the server adds them under `_meta["io.skillmux/summary"]`. None for a `"dynamic"` entry.
 */
function summaryOf(entry: SkillEntry): SkillSummary[] {
  if (entry.resources === "dynamic") return [];
  const file = entry.resources.find((r) => r.uri === entry.uri);
  if (file === undefined) return [];
  const front = entry.frontmatter;
  const meta = (entry._meta as Record<string, unknown> | undefined)?.[SUMMARY_META] as
    | { keywords?: unknown; tasks?: unknown }
    | undefined;
  const name = safeNormalizeSkillName(entryName(entry.uri));
  if (name === undefined) return [];
  return [{
    name,
    description: front.description,
    digest: file.digest,
    tags: listOf(front.tags, /,/),
    keywords: strings(meta?.keywords),
    tasks: strings(meta?.tasks),
    location: entry.uri,
    allowedTools: listOf(front["allowed-tools"], /\s+/),
    remote: true,
  }];
}

/**
 * One source per enabled server of `registry`, in registration order, each connecting with the
 * era the registry learnt (no probe) and dropping the registry's cached discovery when the server
 * says its lists changed. Use them as one group (`[...sources]`) so the servers are asked in
 * parallel and the answer follows registration order.
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
  const servers = (await registry.list()).filter((s) =>
    s.enabled !== false && (s.url !== undefined || s.command !== undefined)
  );
  return await Promise.all(servers.map(async (server) => {
    const hint = options.connect?.hint ?? (await registry.discovery(server.name))?.hint;
    return createMcpSkillSource(server, {
      ...options,
      connect: { ...options.connect, hint },
      onListChanged() {
        registry.invalidate(server.name).catch(() => {});
        options.onListChanged?.();
      },
    });
  }));
}
