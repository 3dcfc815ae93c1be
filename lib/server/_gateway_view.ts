// Private: what one user of the gateway sees: their skills (the skills server's catalog over their
// resolver), the approved tools of their registered servers (a catalog with approvals), the
// upstream connections, and a watcher that tells sessions when the listed tools change.
//
// Changes made through the registry object in this process arrive by `onChange` (the catalog
// follows them); changes made elsewhere (another process, `skillmux approve` writing the approvals
// file, an edited config.toml) are found by polling: every `pollMs` the registry's server list and
// the approvals document are fingerprinted, and only when that changed is the catalog rebuilt.
// Listing never waits for any of this: it answers from the last built catalog.
//
// The same poll looks at the watched skill folders (`watch`): when their fingerprint changed and
// the served skills differ, listeners of `onSkillsChanged` hear it (resources/list_changed).

import { createHash } from "node:crypto";
import { createCatalog } from "../catalog/build/catalog.ts";
import { heldToolsNotice } from "../catalog/search/held_tools.ts";
import type { ApprovalOptions, Catalog, FeedbackRequest } from "../catalog/model/types.ts";
import type { ConnectOptions } from "../mcp/client/connect_options.ts";
import type { ServerRegistry } from "../mcp/registry/registry.ts";
import type { Tool } from "../mcp/protocol/types.ts";
import { createMemoryStorage } from "../storage/memory.ts";
import type { Resolver } from "../resolve/types.ts";
import { SkillCatalog } from "./_catalog.ts";
import { folderSignature } from "./_folder.ts";
import { UpstreamPool } from "./_gateway_pool.ts";
import { matchPins } from "./_gateway_pins.ts";
import { findToolsDescription } from "./_gateway_summary.ts";
import { takesToolTasks, TaskRelay } from "./_gateway_task_relay.ts";
import type { GatewayPins } from "./gateway_types.ts";

/** What a view is built from. */
export interface GatewayViewOptions {
  registry?: ServerRegistry;
  resolver?: Resolver;
  approvals?: ApprovalOptions;
  connect?: ConnectOptions;
  listTimeoutMs?: number;
  pollMs: number;
  /** Tool ids or globs listed directly whatever `discover` says. */
  pinned?: readonly string[];
  /** Skill folders watched for changes (resources/list_changed). */
  watch?: readonly string[];
  log?: (line: string) => void;
  /** Labelled requests that rank the tools they name (`createCatalog`'s `feedback`). */
  feedback?: readonly FeedbackRequest[];
}

/** One user's gateway: skills, approved tools, upstream connections, change notices. */
export class GatewayView {
  readonly skills: SkillCatalog;
  readonly catalog: Catalog;
  readonly pool: UpstreamPool;
  /** The tasks relayed to the upstream servers for this view's hosts. */
  readonly tasks: TaskRelay = new TaskRelay();
  readonly #options: GatewayViewOptions;
  readonly #listeners = new Set<() => void>();
  readonly #skillListeners = new Set<() => void>();
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #unsubscribe: () => void;
  #tools: Tool[] = [];
  #pinned: Tool[] = [];
  #pins: GatewayPins = { listed: [], held: [], unknown: [] };
  #version = "";
  /** `execution.taskSupport` of the listed tools whose server takes tasks, by id. */
  #taskSupport = new Map<string, "optional" | "required">();
  /** The servers whose discovery says they take task-augmented tools/call. */
  #taskServers = new Set<string>();
  #skillsSignature = "";
  #skillsVersion = "";
  #storage = "";
  #checking: Promise<void> | undefined;

  private constructor(options: GatewayViewOptions, catalog: Catalog) {
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
  static async open(options: GatewayViewOptions): Promise<GatewayView> {
    const approvals = options.approvals ?? { storage: createMemoryStorage() };
    const catalog = await createCatalog({
      registry: options.registry,
      approvals,
      timeoutMs: options.listTimeoutMs,
      ...(options.feedback ? { feedback: options.feedback } : {}),
    });
    const view = new GatewayView({ ...options, approvals }, catalog);
    view.#storage = await view.#fingerprint().catch(() => "");
    await view.#learnTaskServers();
    view.#publish();
    if (options.watch?.length) {
      view.#skillsSignature = await view.#skillsFingerprint();
      view.#skillsVersion = await view.skills.snapshot().then((s) => s.version, () => "");
    }
    return view;
  }

  /**
   * `execution.taskSupport` of a listed tool whose server takes tasks (`optional`, `required`),
   * or `undefined` (it runs as a plain call, or its server takes no tasks).
   */
  taskSupport(id: string): "optional" | "required" | undefined {
    return this.#taskSupport.get(id);
  }

  /** Pinned tools (approved ones), listed directly even with `discover`. */
  get pinned(): readonly Tool[] {
    return this.#pinned;
  }

  /** Where the pins stand. */
  get pins(): GatewayPins {
    return this.#pins;
  }

  /** Changes whenever the served skills of the watched folders change. */
  get skillsVersion(): string {
    return this.#skillsVersion;
  }

  /** `find_tools`'s description now: what lies behind it (see _gateway_summary.ts). */
  findToolsDescription(approveCommand: string): string {
    const listed = new Set(this.#tools.map((t) => t.name));
    const tools = this.catalog.entries.filter((e) => e.kind === "tool" && listed.has(e.id));
    const held = this.catalog.held.filter((h) => h.entry.kind === "tool").length;
    const pinned = heldToolsNotice(this.#pins.held, { command: approveCommand });
    return findToolsDescription(tools, held, approveCommand) + (pinned ? ` Pinned: ${pinned}` : "");
  }

  /** Call `listener` whenever the watched skills change; returns the unsubscribe function. */
  onSkillsChanged(listener: () => void): () => void {
    this.#skillListeners.add(listener);
    return () => void this.#skillListeners.delete(listener);
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
        await this.#learnTaskServers();
        if (this.#publish()) {
          this.#options.log?.("tools changed: telling clients (notifications/tools/list_changed)");
          for (const listener of this.#listeners) listener();
        }
        await this.#checkSkills();
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
    this.#skillListeners.clear();
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
    const pins = matchPins(
      this.#options.pinned ?? [],
      tools.map((t) => t.name),
      this.catalog.held.filter((h) => h.entry.kind === "tool").map((h) => h.entry.id),
    );
    const before = JSON.stringify(this.#pins);
    this.#pins = pins;
    if (this.#options.pinned?.length && JSON.stringify(pins) !== before) {
      if (pins.held.length) {
        this.#options.log?.(`pinned, waiting for approval: ${pins.held.join(", ")}`);
      }
      if (pins.unknown.length) {
        this.#options.log?.(`pins matching no tool: ${pins.unknown.join(", ")}`);
      }
    }
    const listed = new Set(pins.listed);
    const support = new Map<string, "optional" | "required">();
    for (const entry of this.catalog.entries) {
      if (entry.kind !== "tool" || !this.#taskServers.has(entry.server ?? "")) continue;
      const tool = this.catalog.toolTarget(entry.id)?.tool as Tool & {
        execution?: { taskSupport?: unknown };
      };
      const value = tool?.execution?.taskSupport;
      if (value === "optional" || value === "required") support.set(entry.id, value);
    }
    this.#taskSupport = support;
    const version = digest(JSON.stringify([tools, [...support]]));
    if (version === this.#version) return false;
    this.#tools = tools;
    this.#pinned = tools.filter((t) => listed.has(t.name));
    this.#version = version;
    return true;
  }

  /** Which servers take task-augmented tools/call, from their discovery (or open client). */
  async #learnTaskServers(): Promise<void> {
    const servers = new Set<string>();
    const names = new Set<string>();
    for (const entry of this.catalog.entries) {
      if (entry.kind !== "tool" || entry.server === undefined) continue;
      const client = this.catalog.toolTarget(entry.id)?.client;
      if (client !== undefined) {
        if (takesToolTasks(client.capabilities)) servers.add(entry.server);
      } else names.add(entry.server);
    }
    await Promise.all([...names].map(async (name) => {
      const found = await this.#options.registry?.discovery(name).catch(() => undefined);
      if (takesToolTasks(found?.capabilities)) servers.add(name);
    }));
    this.#taskServers = servers;
  }

  /** Tell skill listeners when the watched folders' skills changed. */
  async #checkSkills(): Promise<void> {
    if (!this.#options.watch?.length) return;
    const signature = await this.#skillsFingerprint();
    if (signature === this.#skillsSignature) return;
    const version = (await this.skills.snapshot()).version;
    this.#skillsSignature = signature;
    if (version === this.#skillsVersion) return;
    this.#skillsVersion = version;
    this.#options.log?.("skills changed: telling clients (notifications/resources/list_changed)");
    for (const listener of this.#skillListeners) listener();
  }

  /** The watched folders' fingerprints, as one string. */
  async #skillsFingerprint(): Promise<string> {
    const all = await Promise.all((this.#options.watch ?? []).map((dir) => folderSignature(dir)));
    return digest(JSON.stringify(all));
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
 * added back only for hosts that declare tasks (`taskSupport`); to the others the gateway runs
 * task tools as tasks itself and answers their plain call.
 */
function listedTool(id: string, tool: Tool): Tool {
  const { name: _name, execution: _execution, ...rest } = tool;
  return { ...rest, name: id };
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");
