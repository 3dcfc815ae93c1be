/**
 * A server registry a multi-user service runs on: one record per server in any storage
 * (Redis and the other unstorage drivers through `@skillmux/core/unstorage`), owners, global
 * servers, sharing, built-in virtual servers, and secrets encrypted at rest.
 *
 * @module
 */

import type { Storage } from "../../storage/types.ts";
import type { ConnectOptions } from "../client/client.ts";
import type { RegisteredServer } from "./records.ts";
import {
  createSecretBox,
  type SecretBox,
  type SecretBoxOptions,
  type SecretKeySource,
} from "../sealing/secrets.ts";
import {
  createKvStore,
  GLOBAL_OWNER,
  type KvContext,
  parseRecord,
  type StoredRecord,
} from "./_kv_store.ts";
import { openServer, sealServer } from "./_sealing.ts";
import { swap } from "./_swap.ts";
import { registryOn } from "./_view.ts";
import type { ServerRegistry } from "./types.ts";

/** A built-in virtual server: listed for every user, served in-process, never changed. */
export interface BuiltinServer {
  /** `builtin:<name>`, e.g. `builtin:skills`. */
  id: string;
  /** The handle, e.g. `skills`. */
  name: string;
  /** What it offers. */
  description: string;
}

/**
 * The built-in skills that ship with skillmux, as a virtual server (`builtin:skills`): the
 * per-user resolver serves them in-process, with no HTTP.
 *
 * @example
 * ```ts
 * import { BUILTIN_SKILLS_SERVER } from "@skillmux/core/multi-user";
 * console.log(BUILTIN_SKILLS_SERVER.id); // "builtin:skills"
 * ```
 */
export const BUILTIN_SKILLS_SERVER: BuiltinServer = {
  id: "builtin:skills",
  name: "builtin-skills",
  description: "The skills that ship with skillmux, served in-process",
};

/** Options of {@linkcode createMultiUserRegistry}. */
export interface MultiUserRegistryOptions {
  /** Where the records live: a shared database through `createUnstorageStorage`, or any storage. */
  storage: Storage;
  /** Key prefix of every record (default `registry/`). */
  prefix?: string;
  /**
   * Encrypt API keys, header values and env values at rest (AES-256-GCM). Without it they are
   * stored in plain text: anyone who can read the database reads them.
   */
  secrets?: SecretBoxOptions;
  /**
   * Connection options and the policy servers are checked against. Defaults fit a service:
   * the `strict` URL policy (https to public addresses only) and no `${VAR}` templating from the
   * service's environment (`env: {}`), so users cannot reach internal hosts or read its secrets.
   */
  connect?: ConnectOptions;
  /** Accept stdio servers (they run a program on the service's machine); default `false`. */
  allowStdio?: boolean;
  /** Virtual servers every user sees (default `[BUILTIN_SKILLS_SERVER]`). */
  builtins?: readonly BuiltinServer[];
}

/** One user's view of a {@linkcode MultiUserRegistry}. */
export interface UserServerRegistry extends ServerRegistry {
  /** The user this view acts for. */
  readonly userId: string;
  /** Let `userId` see and use a server you own (owner only; `ForbiddenError` otherwise). */
  share(idOrName: string, userId: string): Promise<RegisteredServer>;
  /** Stop sharing a server you own with `userId`. */
  unshare(idOrName: string, userId: string): Promise<RegisteredServer>;
  /**
   * The enabled servers this user may use, secrets included, for connecting on their behalf.
   * `list()` hides the secrets of servers the user does not own; never show these to the user.
   */
  connectable(): Promise<RegisteredServer[]>;
}

/** What changed: a server, and the users whose view of it changed (`"all"` for global ones). */
export interface UserRegistryChange {
  /** The server's id. */
  id: string;
  /** The users concerned. */
  users: readonly string[] | "all";
}

/** A registry for many users; see {@linkcode createMultiUserRegistry}. */
export interface MultiUserRegistry {
  /** The view of one user: their servers, global ones, those shared with them, built-ins. */
  forUser(userId: string): UserServerRegistry;
  /** The service's own view: add, update and remove global servers (visible to every user). */
  readonly global: ServerRegistry;
  /**
   * Re-encrypt every secret with `key` (values sealed with the old key, or stored plain, are
   * sealed again), then use it. Other instances need the new key (or it among `previousKeys`).
   * Resolves to how many servers were re-sealed (one removed meanwhile is not counted) and the
   * new key's id.
   */
  rotateSecrets(key: SecretKeySource): Promise<{ servers: number; keyId: string }>;
  /** Be told of changes made through this instance (the per-user resolver drops stale chains). */
  onChange(listener: (change: UserRegistryChange) => void): () => void;
}

/**
 * Throw `TypeError` unless `userId` is a usable user id: 1–200 characters, no control
 * characters, not `.` or `..`, not starting with `@` (reserved).
 *
 * @example
 * ```ts
 * import { assertUserId } from "@skillmux/core/multi-user";
 * assertUserId("ada@example.org"); // fine
 * ```
 */
export function assertUserId(userId: unknown): asserts userId is string {
  const problem = typeof userId !== "string"
    ? "must be a string"
    : userId.length === 0 || userId.length > 200
    ? "must be 1 to 200 characters"
    // deno-lint-ignore no-control-regex
    : /[\u0000-\u001f\u007f]/.test(userId)
    ? "must not contain control characters"
    : userId === "." || userId === ".."
    ? 'must not be "." or ".."'
    : userId.startsWith("@")
    ? 'must not start with "@" (reserved)'
    : undefined;
  if (problem) throw new TypeError(`Invalid user id ${JSON.stringify(userId)}: ${problem}`);
}

/**
 * A multi-user server registry over `storage`. Every server is one record (so two service
 * instances changing different servers never lose each other's work); a change of one server
 * is compare-and-set when the storage offers it (memory, unstorage over Redis or its memory
 * driver: concurrent changes are re-applied on the winner, so none is lost) and
 * last-writer-wins otherwise. Users see what they own, global servers, servers shared with
 * them and the built-ins; only owners change or share (`ForbiddenError`), and a server a user
 * cannot see is "not found", exactly like an unknown one.
 *
 * @example Two users and a global server
 * ```ts
 * import { createMemoryStorage } from "@skillmux/core";
 * import { createMultiUserRegistry } from "@skillmux/core/multi-user";
 * const registry = createMultiUserRegistry({
 *   storage: createMemoryStorage(),
 *   secrets: { key: crypto.getRandomValues(new Uint8Array(32)) },
 * });
 * await registry.global.add({ name: "docs", url: "https://docs.example.com/mcp" }, { discover: false });
 * const ada = registry.forUser("ada");
 * await ada.add({ name: "mine", url: "https://ada.example.com/mcp", apiKey: "sk-ada" }, { discover: false });
 * await ada.share("mine", "bob");
 * console.log((await registry.forUser("bob").list()).map((s) => s.name)); // ["mine", "docs", "builtin-skills"]
 * ```
 */
export function createMultiUserRegistry(options: MultiUserRegistryOptions): MultiUserRegistry {
  const prefix = options.prefix ?? "registry/";
  let box: SecretBox | undefined = options.secrets ? createSecretBox(options.secrets) : undefined;
  let keys: SecretBoxOptions | undefined = options.secrets;
  const listeners = new Set<(change: UserRegistryChange) => void>();
  const builtins: RegisteredServer[] = (options.builtins ?? [BUILTIN_SKILLS_SERVER]).map((b) => ({
    ...b,
    scope: "builtin",
  }));
  const ctx: KvContext = {
    storage: options.storage,
    prefix,
    box: () => box,
    builtins,
    changed(record: StoredRecord, users: readonly string[]) {
      const change = { id: record.id, users: record.scope === "global" ? "all" as const : users };
      for (const listener of listeners) listener(change);
    },
  };
  const connect: ConnectOptions = {
    ...options.connect,
    env: options.connect?.env ?? {},
    urlPolicy: options.connect?.urlPolicy ?? { mode: "strict" },
  };
  const viewOptions = { connect, allowStdio: options.allowStdio ?? false, masked: true };
  const { owned: _o, ...global } = registryOn(createKvStore(ctx, GLOBAL_OWNER), viewOptions);

  return {
    global,
    forUser(userId) {
      assertUserId(userId);
      const store = createKvStore(ctx, userId);
      const { owned, ...view } = registryOn(store, viewOptions);
      const share = async (target: string, other: string, on: boolean) => {
        assertUserId(other);
        const server = await owned(target, on ? "share" : "unshare");
        return await store.share(server.id, other, on);
      };
      return {
        ...view,
        userId,
        share: (target, other) => share(target, other, true),
        unshare: (target, other) => share(target, other, false),
        async connectable() {
          return (await store.list()).filter((s) =>
            s.enabled !== false && (s.url !== undefined || s.command !== undefined)
          );
        },
      };
    },
    async rotateSecrets(key) {
      const previous = keys ? [keys.key, ...(keys.previousKeys ?? [])] : [];
      const next = createSecretBox({ key, previousKeys: previous });
      const keyId = await next.keyId();
      let servers = 0;
      for (const recordKey of await options.storage.keys(`${prefix}servers/`)) {
        // A record removed since the listing is not written back, nor counted.
        const resealed = await swap(options.storage, recordKey, async (text) => {
          if (text === undefined) return { next: undefined, result: false };
          const record = parseRecord(text, recordKey);
          const open = await openServer({ ...record.server, id: record.id }, next);
          const { id: _id, ...sealed } = await sealServer(open, next);
          return { next: JSON.stringify({ ...record, server: sealed }), result: true };
        }, `server ${recordKey}`);
        if (resealed) servers++;
      }
      box = next;
      keys = { key, previousKeys: previous };
      return { servers, keyId };
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
