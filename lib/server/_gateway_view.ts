// Private: what one user of the gateway sees: their skills (the skills server's catalog over their
// resolver), the approved tools of their registered servers (a catalog with approvals), the
// upstream connections, and a watcher that tells sessions when the listed tools change.
//
// Changes made through the registry object in this process arrive by `onChange` (the catalog
// follows them); changes made elsewhere (another process, `skillmux approve` writing the approvals
// file, an edited config.toml) are found by polling: every `pollMs` the registry's server list and
// the approvals document are fingerprinted, and only when that changed is the catalog rebuilt.
// Listing never waits for any of this: it answers from the last built catalog.

import { createHash } from "node:crypto";
import { createCatalog } from "../catalog/catalog.ts";
import type { ApprovalOptions, Catalog, FeedbackRequest } from "../catalog/types.ts";
import type { ConnectOptions } from "../mcp/client/connect_options.ts";
import type { ServerRegistry } from "../mcp/registry/registry.ts";
import type { Tool } from "../mcp/protocol/types.ts";
import { createMemoryStorage } from "../storage/memory.ts";
import type { Resolver } from "../resolve/types.ts";
import { SkillCatalog } from "./_catalog.ts";
import { UpstreamPool } from "./_gateway_pool.ts";

/** What a view is built from. */
export interface ViewOptions {
  registry?: ServerRegistry;
  resolver?: Resolver;
  approvals?: ApprovalOptions;
  connect?: ConnectOptions;
  listTimeoutMs?: number;
  pollMs: number;
  log?: (line: string) => void;
  /** Labelled requests that rank the tools they name (`createCatalog`'s `feedback`). */
  feedback?: readonly FeedbackRequest[];
}

/** One user's gateway: skills, approved tools, upstream connections, change notices. */
export class GatewayView {
  readonly skills: SkillCatalog;
  readonly catalog: Catalog;
  readonly pool: UpstreamPool;
  readonly #options: ViewOptions;
  readonly #listeners = new Set<() => void>();
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #unsubscribe: () => void;
  #tools: Tool[] = [];
  #version = "";
  #storage = "";
  #checking: Promise<void> | undefined;

  private constructor(options: ViewOptions, catalog: Catalog) {
    this.#options = options;
    this.skills = new SkillCatalog({ resolver: options.resolver });
    this.catalog = catalog;
    this.pool = new UpstreamPool(catalog, options.connect);
    this.#publish();
    this.#timer = setInterval(() => void this.check().catch(() => {}), options.pollMs);
    (this.#timer as { unref?: () => void }).unref?.();
    // The catalog rebuilds itself on registry changes in this process: a change of the servers is
    // looked at right away (sharing that rebuild); a re-discovery is published by the next poll,
    // so that a rebuild's own discovery never starts another rebuild.
    this.#unsubscribe = options.registry?.onChange((change) => {
      if (change.kind !== "servers") return;
      setTimeout(() => void this.check(true).catch(() => {}), 0);
    }) ?? (() => {});
  }

  /** Build a view (its catalog built once; a server that cannot be reached is left out). */
  static async open(options: ViewOptions): Promise<GatewayView> {
    const approvals = options.approvals ?? { storage: createMemoryStorage() };
    const catalog = await createCatalog({
      registry: options.registry,
      approvals,
      timeoutMs: options.listTimeoutMs,
      ...(options.feedback ? { feedback: options.feedback } : {}),
    });
    const view = new GatewayView({ ...options, approvals }, catalog);
    view.#storage = await view.#fingerprint().catch(() => "");
    return view;
  }

  /** The approved tools of the registered servers, as `tools/list` shows them. */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  /** Changes whenever the listed tools change. */
  get version(): string {
    return this.#version;
  }

  /** Call `listener` whenever the listed tools change; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Look for changes: rebuild the catalog when the registry or the approvals changed (or when
   * `force`), and tell listeners when the listed tools differ. Concurrent calls share one check.
   */
  check(force = false): Promise<void> {
    this.#checking ??= (async () => {
      try {
        const now = await this.#fingerprint();
        if (force || now !== this.#storage) {
          this.#storage = now;
          await this.catalog.refresh();
        }
        if (this.#publish()) {
          this.#options.log?.("tools changed: telling clients (notifications/tools/list_changed)");
          for (const listener of this.#listeners) listener();
        }
      } finally {
        this.#checking = undefined;
      }
    })();
    return this.#checking;
  }

  /** Stop watching, close the upstream connections. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#unsubscribe();
    this.#listeners.clear();
    this.catalog.dispose();
    await this.pool.close();
  }

  /** Rebuild the listed tools from the catalog; whether they changed. */
  #publish(): boolean {
    const tools: Tool[] = [];
    for (const entry of this.catalog.entries) {
      if (entry.kind !== "tool") continue;
      const target = this.catalog.toolTarget(entry.id);
      if (target === undefined) continue;
      tools.push(listedTool(entry.id, target.tool));
    }
    const version = digest(JSON.stringify(tools));
    if (version === this.#version) return false;
    this.#tools = tools;
    this.#version = version;
    return true;
  }

  /** The registry's servers (without their status) and the approvals document, hashed. */
  async #fingerprint(): Promise<string> {
    const servers = (await this.#options.registry?.list()) ?? [];
    const config = servers.map(({ status: _status, ...server }) => server);
    const { storage, key } = this.#options.approvals!;
    const approvals = await storage.get(key ?? "approvals.json");
    return digest(JSON.stringify([config, approvals ?? null]));
  }
}

/**
 * A tool as the gateway lists it: the approved definition under its catalog id. Task support is
 * not passed on: the gateway runs task tools as tasks itself and answers the host's plain call.
 */
function listedTool(id: string, tool: Tool): Tool {
  const { name: _name, execution: _execution, ...rest } = tool;
  return { ...rest, name: id };
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");
