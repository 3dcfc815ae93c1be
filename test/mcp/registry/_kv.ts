// Test helpers of test/mcp/registry for the multi-user registry's key-value store
// (lib/mcp/registry/_kv_store.ts): a populated registry, fresh ones, a store of one user, and a
// storage that records the methods called on it.
import { createKvStore } from "../../../lib/mcp/registry/_kv_store.ts";
import {
  createMultiUserRegistry,
  type MultiUserRegistry,
} from "../../../lib/mcp/registry/users.ts";
import { createMemoryStorage } from "../../../lib/storage/memory.ts";
import type { Storage } from "../../../lib/storage/types.ts";

/** Add and change servers without contacting them. */
export const off = { discover: false } as const;

/** A registry over memory storage with a global "company" server and user "a b"'s "lab", shared with "bob". */
export async function populated(url: string): Promise<{
  storage: Storage;
  registry: MultiUserRegistry;
  labId: string;
  companyId: string;
}> {
  const storage = createMemoryStorage();
  const registry = createMultiUserRegistry({
    storage,
    secrets: { key: new Uint8Array(32).fill(4) },
    connect: { urlPolicy: { mode: "default" } },
  });
  const companyId = (await registry.global.add({ name: "company", url })).server.id;
  const labId = (await registry.forUser("a b").add({ name: "lab", url })).server.id;
  await registry.forUser("a b").share("lab", "bob");
  return { storage, registry, labId, companyId };
}

/** A registry of its own, over fresh memory storage, for the tests that change servers. */
export function fresh(): { store: Storage; registry: MultiUserRegistry } {
  const store = createMemoryStorage();
  return {
    store,
    registry: createMultiUserRegistry({
      storage: store,
      secrets: { key: new Uint8Array(32).fill(9) },
      connect: { urlPolicy: { mode: "default" } },
    }),
  };
}

/** `inner`, the names of the methods called on it kept in `calls`. */
export function counted(inner: Storage): { storage: Storage; calls: string[] } {
  const calls: string[] = [];
  const storage = new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(`${String(prop)} ${String(args[0])}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Storage;
  return { storage, calls };
}

/** A KV store of `user` over `storage`, without a key or built-ins. */
export const kvStore = (storage: Storage, user: string) =>
  createKvStore({ storage, prefix: "kv/", box: () => undefined, builtins: [], changed() {} }, user);
