// Private: servers as `[[mcp.servers]]` in one TOML document (config.toml) — the single-user
// registry, with one implicit owner. Writes are serialised in this process; across processes
// the whole document is last-writer-wins, as before. An entry's id is its name unless a rename
// made them differ (then `id = "…"` is written), so files that were never renamed keep their
// layout. Status lives beside the document, under `cache/status/<id>.json`.

import type { Storage } from "../../storage/types.ts";
import type { McpServerConfig } from "../protocol/types.ts";
import { parseServersToml, toServersToml } from "./config_formats.ts";
import { newServerId, type RegisteredServer, type ServerStatus } from "./records.ts";
import type { SecretBox } from "../sealing/secrets.ts";
import { openServer, sealServer } from "./_sealing.ts";
import { clashIndex, configOf, gone, type RecordStore } from "./_store.ts";

const statusKey = (id: string) => `cache/status/${id}.json`;

/** A record store over the TOML document at `key` of `storage`. */
export function createTomlStore(storage: Storage, key: string, box?: SecretBox): RecordStore {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };

  async function read(): Promise<RegisteredServer[]> {
    const entries = parseServersToml((await storage.get(key)) ?? "") as RegisteredServer[];
    return await Promise.all(
      entries.map((entry) => openServer({ ...entry, id: entry.id ?? entry.name }, box)),
    );
  }
  async function write(servers: readonly RegisteredServer[]): Promise<void> {
    const sealed = await Promise.all(servers.map((s) => sealServer(s, box)));
    const entries = sealed.map((s) => ({ ...configOf(s), id: s.id }));
    await storage.set(key, toServersToml(entries, (await storage.get(key)) ?? ""));
  }
  async function withStatus(server: RegisteredServer): Promise<RegisteredServer> {
    const text = await storage.get(statusKey(server.id)).catch(() => undefined);
    return text === undefined ? server : { ...server, status: JSON.parse(text) as ServerStatus };
  }
  const cacheKey = (server: RegisteredServer) => `cache/mcp/${server.name}.json`;

  return {
    storage,
    async list() {
      return await Promise.all((await read()).map(withStatus));
    },
    owns: () => true,
    async lookup(target) {
      const all = await read();
      const found = all.find((s) => s.id === target) ?? all.find((s) => s.name === target) ??
        all.find((s) => s.url === target);
      return found && { server: await withStatus(found), owned: true };
    },
    async precheck(servers, replace) {
      let all: McpServerConfig[] = await read();
      for (const server of servers) {
        const same = clashIndex(all, server, replace);
        all = same >= 0 ? all.map((s, i) => (i === same ? server : s)) : [...all, server];
      }
    },
    insert(servers, replace) {
      return serial(async () => {
        let all = await read();
        const added: RegisteredServer[] = [];
        for (const server of servers) {
          const same = clashIndex(all, server, replace);
          const taken = all.some((s) => s.id === server.name);
          const id = same >= 0 ? all[same].id : taken ? newServerId() : server.name;
          const record: RegisteredServer = { ...server, id };
          all = same >= 0 ? all.map((s, i) => (i === same ? record : s)) : [...all, record];
          added.push(record);
        }
        await write(all);
        return added;
      });
    },
    modify(id, change) {
      return serial(async () => {
        const all = await read();
        const index = all.findIndex((s) => s.id === id);
        if (index < 0) throw gone(id);
        const next = { ...change(await withStatus(all[index])), id };
        clashIndex(all, next, false);
        await write(all.map((s, i) => (i === index ? next : s)));
        if (next.name !== all[index].name) await storage.delete(cacheKey(all[index]));
        return next;
      });
    },
    remove(id) {
      return serial(async () => {
        const all = await read();
        const found = all.find((s) => s.id === id);
        if (!found) throw gone(id);
        await write(all.filter((s) => s !== found));
        await storage.delete(cacheKey(found));
        await storage.delete(statusKey(found.id));
        return found;
      });
    },
    async setStatus(server, status) {
      await storage.set(statusKey(server.id), JSON.stringify(status));
    },
    cacheKey,
  };
}
