// Private: one record per server in any Storage, for many users. Layout under `prefix`:
//   servers/<id>.json        the record (secrets sealed)        — the truth
//   owners/<user>/<id>       index: the servers a user owns     — hints, checked against
//   shares/<user>/<id>       index: servers shared with a user    the record on every read
//   global/<id>              index: global servers
//   cache/<id>.json          discovery cache
// Index entries are written before the record and deleted after it, so an index never misses
// a server; a stale entry is ignored. Records change through `swap` (compare-and-set when the
// storage has it, else last-writer-wins across processes).

import type { Storage } from "../../storage/types.ts";
import { PolicyError } from "../protocol/errors.ts";
import type { McpServerConfig } from "../protocol/types.ts";
import { ConflictError } from "./errors.ts";
import { newServerId, type RegisteredServer, type ServerStatus } from "./records.ts";
import type { SecretBox } from "../sealing/secrets.ts";
import { openServer, sealServer } from "./_sealing.ts";
import { clashIndex, configOf, gone, type RecordStore } from "./_store.ts";
import { swap } from "./_swap.ts";

/** The reserved owner of global servers. */
export const GLOBAL_OWNER = "@global";

/** A stored record. */
export interface StoredRecord {
  v: 1;
  id: string;
  owner: string;
  scope: "user" | "global";
  sharedWith: string[];
  revision: number;
  createdAt: string;
  updatedAt: string;
  server: McpServerConfig & { description?: string };
  status?: ServerStatus;
}

/** How a KV store is set up; `box()` is read on every call, so a rotation takes effect at once. */
export interface KvContext {
  storage: Storage;
  prefix: string;
  box(): SecretBox | undefined;
  builtins: readonly RegisteredServer[];
  changed(record: StoredRecord, users: readonly string[]): void;
}

const ID = /^s-[0-9a-z]{12}-[0-9a-z]{14}$/;
const enc = (user: string) => encodeURIComponent(user);

/** Parse a stored record, or throw a clear error naming the key. */
export function parseRecord(text: string, key: string): StoredRecord {
  const record = JSON.parse(text) as StoredRecord;
  if (record?.v !== 1 || typeof record.id !== "string" || typeof record.server !== "object") {
    throw new Error(`Storage key "${key}" does not hold a server record of this registry`);
  }
  return record;
}

/** The store of one user (`user`) or of the global servers (`user` is {@linkcode GLOBAL_OWNER}). */
export function createKvStore(ctx: KvContext, user: string): RecordStore & {
  share(id: string, other: string, on: boolean): Promise<RegisteredServer>;
} {
  const { storage, prefix } = ctx;
  const global = user === GLOBAL_OWNER;
  const recordKey = (id: string) => `${prefix}servers/${id}.json`;
  const ownerKey = (owner: string, id: string) =>
    owner === GLOBAL_OWNER ? `${prefix}global/${id}` : `${prefix}owners/${enc(owner)}/${id}`;
  const shareKey = (other: string, id: string) => `${prefix}shares/${enc(other)}/${id}`;
  const owns = (r: { owner?: string }) => r.owner === user;
  const visible = (r: StoredRecord) =>
    owns(r) || r.scope === "global" || (!global && r.sharedWith.includes(user));

  async function toServer(record: StoredRecord): Promise<RegisteredServer> {
    const server: RegisteredServer = {
      ...record.server,
      id: record.id,
      owner: record.owner,
      scope: record.scope,
      revision: record.revision,
    };
    if (record.owner === user) server.sharedWith = [...record.sharedWith];
    if (record.status) server.status = record.status;
    return await openServer(server, ctx.box());
  }

  async function load(id: string): Promise<StoredRecord | undefined> {
    const text = await storage.get(recordKey(id));
    return text === undefined ? undefined : parseRecord(text, recordKey(id));
  }

  async function ids(index: string): Promise<string[]> {
    return (await storage.keys(index)).map((key) => key.slice(index.length)).filter((id) =>
      ID.test(id)
    );
  }

  async function list(): Promise<RegisteredServer[]> {
    const groups = global ? [await ids(`${prefix}global/`)] : await Promise.all([
      ids(`${prefix}owners/${enc(user)}/`),
      ids(`${prefix}shares/${enc(user)}/`),
      ids(`${prefix}global/`),
    ]);
    const seen = new Set<string>();
    const order = groups.flat().filter((id) => !seen.has(id) && seen.add(id));
    const records = (await Promise.all(order.map(load))).filter((r): r is StoredRecord =>
      r !== undefined && visible(r)
    );
    const rank = (r: StoredRecord) => owns(r) ? 0 : r.scope === "global" ? 2 : 1;
    records.sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : 1));
    return [...await Promise.all(records.map(toServer)), ...ctx.builtins];
  }

  async function ownedServers(): Promise<RegisteredServer[]> {
    return (await list()).filter(owns);
  }

  /** Change the record of `id` (owned by this caller) through `swap`. */
  function update(
    id: string,
    change: (record: StoredRecord) => Promise<StoredRecord | undefined>,
  ): Promise<StoredRecord> {
    return swap(storage, recordKey(id), async (text) => {
      const record = text === undefined ? undefined : parseRecord(text, recordKey(id));
      if (record === undefined || !owns(record)) throw gone(id);
      const next = await change(record);
      return {
        next: next === undefined ? undefined : JSON.stringify(next),
        result: next ?? record,
      };
    }, `server ${id}`);
  }

  async function insertOne(server: McpServerConfig): Promise<RegisteredServer> {
    const now = new Date().toISOString();
    const id = newServerId();
    const sealed = await sealServer({ ...server, id }, ctx.box());
    const record: StoredRecord = {
      v: 1,
      id,
      owner: user,
      scope: global ? "global" : "user",
      sharedWith: [],
      revision: 1,
      createdAt: now,
      updatedAt: now,
      server: configOf(sealed),
    };
    await storage.set(ownerKey(user, id), "");
    await storage.set(recordKey(id), JSON.stringify(record));
    ctx.changed(record, [user]);
    return await toServer(record);
  }

  const store = {
    storage,
    list,
    owns,
    async lookup(target: string) {
      if (ID.test(target)) {
        const record = await load(target);
        if (record && visible(record)) {
          return { server: await toServer(record), owned: owns(record) };
        }
      }
      const all = await list();
      const match = (fn: (s: RegisteredServer) => boolean) =>
        all.find((s) => owns(s) && fn(s)) ?? all.find(fn);
      const found = match((s) => s.id === target) ?? match((s) => s.name === target) ??
        match((s) => s.url !== undefined && s.url === target);
      return found && { server: found, owned: owns(found) };
    },
    async precheck(servers: readonly McpServerConfig[], replace: boolean) {
      let owned: McpServerConfig[] = await ownedServers();
      for (const server of servers) {
        const same = clashIndex(owned, server, replace);
        owned = same >= 0 ? owned.map((s, i) => (i === same ? server : s)) : [...owned, server];
      }
    },
    async insert(servers: readonly McpServerConfig[], replace: boolean) {
      await store.precheck(servers, replace);
      const owned = await ownedServers();
      const out: RegisteredServer[] = [];
      for (const server of servers) {
        const same = owned.find((s) => s.name === server.name);
        out.push(
          same && replace
            ? await store.modify(same.id, () => ({ ...server, id: same.id }))
            : await insertOne(server),
        );
      }
      return out;
    },
    async modify(
      id: string,
      change: (current: RegisteredServer) => RegisteredServer,
      ifRevision?: number,
    ) {
      let others: RegisteredServer[] | undefined; // read only when the name or URL changes
      const record = await update(id, async (current) => {
        if (ifRevision !== undefined && current.revision !== ifRevision) {
          throw new ConflictError(
            `Server "${current.server.name}" changed: it is at revision ${current.revision}, not ${ifRevision}`,
            { server: current.server.name },
          );
        }
        const next = { ...change(await toServer(current)), id };
        if (next.name !== current.server.name || next.url !== current.server.url) {
          others ??= (await ownedServers()).filter((s) => s.id !== id);
          clashIndex(others, next, false);
        }
        const sealed = await sealServer(next, ctx.box());
        return {
          ...current,
          server: configOf(sealed),
          revision: current.revision + 1,
          updatedAt: new Date().toISOString(),
        };
      });
      ctx.changed(record, [record.owner, ...record.sharedWith]);
      return await toServer(record);
    },
    async remove(id: string) {
      let removed: StoredRecord | undefined;
      await update(id, (record) => {
        removed = record;
        return Promise.resolve(undefined);
      });
      const gone = removed!;
      await Promise.all([
        storage.delete(ownerKey(gone.owner, id)),
        ...gone.sharedWith.map((other) => storage.delete(shareKey(other, id))),
        storage.delete(`${prefix}cache/${id}.json`),
      ]);
      ctx.changed(gone, [gone.owner, ...gone.sharedWith]);
      return await toServer(gone);
    },
    async setStatus(server: RegisteredServer, status: ServerStatus) {
      await swap(storage, recordKey(server.id), (text) => {
        if (text === undefined) return Promise.resolve({ next: undefined, result: undefined });
        const record = parseRecord(text, recordKey(server.id));
        return Promise.resolve({ next: JSON.stringify({ ...record, status }), result: undefined });
      }, `server ${server.id}`);
    },
    cacheKey: (server: RegisteredServer) => `${prefix}cache/${server.id}.json`,
    async share(id: string, other: string, on: boolean) {
      if (global) {
        throw new PolicyError(
          "Global servers are visible to every user; there is nothing to share",
        );
      }
      if (other === user) throw new PolicyError("A server is always visible to its owner");
      // The index entry goes first (readers confirm it against the record); one this call added
      // is taken back when the change fails, so a refused share leaves nothing behind.
      const added = on && (await storage.get(shareKey(other, id))) === undefined;
      if (on) await storage.set(shareKey(other, id), "");
      const record = await update(id, (current) => {
        const has = current.sharedWith.includes(other);
        if (has === on) return Promise.resolve(current);
        const sharedWith = on
          ? [...current.sharedWith, other]
          : current.sharedWith.filter((u) => u !== other);
        return Promise.resolve({
          ...current,
          sharedWith,
          revision: current.revision + 1,
          updatedAt: new Date().toISOString(),
        });
      }).catch(async (error) => {
        if (added) await storage.delete(shareKey(other, id)).catch(() => {});
        throw error;
      });
      if (!on) await storage.delete(shareKey(other, id));
      ctx.changed(record, [record.owner, other]);
      return await toServer(record);
    },
  };
  return store;
}
