// Multi-user registry and resolvers, on a real redis-server (Debian's package):
//  1. one user's list() with 1,000 servers (secrets sealed) among 2,000 in Redis, next to the
//     floor of fetching the same 1,000 records (one SCAN + MGET with ioredis) and the same
//     registry on unstorage's memory driver;
//  2. resolving a skill for 100 users with their own chains (user skills in Redis, a global MCP
//     server, the built-ins): heap per cached user, storage and MCP requests per resolve, and
//     time per warm resolve next to one plain resolver with the same sources.
//
//   node --import tsx bench/multiuser.ts     (also part of `npm run bench`)

import { Redis } from "ioredis";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import redisDriver from "unstorage/drivers/redis";
import { createMultiUserRegistry } from "../lib/mcp/registry/users.ts";
import { createBuiltinSource } from "../lib/resolve/builtin_source.ts";
import { createMcpSkillSource } from "../lib/resolve/mcp_source.ts";
import { createResolver } from "../lib/resolve/resolver.ts";
import { createStorageSource } from "../lib/resolve/storage_source.ts";
import { createUserResolvers } from "../lib/resolve/users.ts";
import type { Storage } from "../lib/storage/types.ts";
import { createUnstorageStorage } from "../lib/storage/unstorage.ts";
import { startSdkServer } from "../test/mcp/_servers.ts";
import { startRedis } from "../test/storage/_redis.ts";
import { fmt, quantile, runtime, sample } from "./_stats.ts";
import { isMain } from "./_main.ts";

const SERVERS = 1_000;
const USERS = 100;
const KEY = new Uint8Array(32).fill(1);
const doc = (name: string, who: string) =>
  `---\nname: ${name}\ndescription: ${who}'s ${name}. Use when benchmarking.\n---\n\n## Concepts\n\n- One.\n`;

/** A storage that counts the calls made through it. */
function counting(inner: Storage): Storage & { calls: number } {
  const counted = { calls: 0 } as Storage & { calls: number };
  for (const method of ["get", "set", "delete", "keys"] as const) {
    // deno-lint-ignore no-explicit-any
    (counted as any)[method] = (...args: any[]) => {
      counted.calls++;
      // deno-lint-ignore no-explicit-any
      return (inner[method] as any)(...args);
    };
  }
  return counted;
}

const gc = (): () => void => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
};

async function fill(storage: Storage, owners: string[]): Promise<void> {
  const registry = createMultiUserRegistry({ storage, secrets: { key: KEY } });
  for (const owner of owners) {
    const view = registry.forUser(owner);
    await view.import(
      Array.from({ length: SERVERS }, (_, i) => ({
        name: `srv-${i}`,
        url: `https://${owner}-${i}.example.com/mcp`,
        apiKey: `sk-${owner}-${i}`,
        description: `Server ${i} of ${owner}`,
      })),
    );
  }
}

export async function benchMultiUser(): Promise<void> {
  const redis = await startRedis();
  const client = new Redis(redis.url);
  const unstorage = createStorage({ driver: redisDriver({ url: redis.url, scanCount: 1000 }) });
  const mcp = await startSdkServer({
    json: true,
    skills: { handbook: doc("handbook", "Company") },
  });
  try {
    console.log(`\n## Multi-user registry on Redis (${runtime()}, redis-server on 127.0.0.1)`);
    const storage = createUnstorageStorage(unstorage);
    const filling = performance.now();
    await fill(storage, ["ada", "bob"]);
    console.log(
      `wrote ${2 * SERVERS} servers (secrets sealed) in ${
        ((performance.now() - filling) / 1000).toFixed(1)
      } s`,
    );
    const ada = createMultiUserRegistry({ storage, secrets: { key: KEY } }).forUser("ada");
    const before = Number(/total_commands_processed:(\d+)/.exec(await client.info("stats"))![1]);
    const listed = await ada.list();
    const after = Number(/total_commands_processed:(\d+)/.exec(await client.info("stats"))![1]);
    const ours = await sample(30, () => ada.list(), 3);
    const floor = await sample(30, async () => {
      const keys: string[] = [];
      let cursor = "0";
      do {
        const [next, found] = await client.scan(
          cursor,
          "MATCH",
          "registry:owners:ada:*",
          "COUNT",
          1000,
        );
        cursor = next;
        keys.push(...found);
      } while (cursor !== "0");
      const ids = keys.map((k) => k.slice("registry:owners:ada:".length));
      const values = await client.mget(...ids.map((id) => `registry:servers:${id}.json`));
      return values.map((v) => JSON.parse(JSON.parse(v!)));
    }, 3);
    const memory = createUnstorageStorage(createStorage({ driver: memoryDriver() }));
    await fill(memory, ["ada"]);
    const inMemory = createMultiUserRegistry({ storage: memory, secrets: { key: KEY } }).forUser(
      "ada",
    );
    const mem = await sample(30, () => inMemory.list(), 3);
    const med = (t: number[]) => quantile(t, 0.5);
    console.log(
      `ada's list(): ${listed.length - 1} servers + 1 built-in, ${
        after - before - 1
      } Redis commands`,
    );
    console.log(
      `  skillmux list() on Redis       median ${fmt(med(ours))}  p90 ${fmt(quantile(ours, 0.9))}`,
    );
    console.log(
      `  raw SCAN + MGET (ioredis)      median ${fmt(med(floor))}  → list() is ${
        (med(ours) / med(floor)).toFixed(1)
      }x the floor`,
    );
    console.log(
      `  list() on unstorage memory     median ${fmt(med(mem))}  → Redis adds ${
        fmt(med(ours) - med(mem))
      }`,
    );

    console.log(`\n## ${USERS} users resolving with their own chains`);
    await unstorage.clear();
    const counted = counting(storage);
    const registry = createMultiUserRegistry({
      storage: counted,
      secrets: { key: KEY },
      connect: { urlPolicy: { mode: "default" } },
    });
    await registry.global.add({ name: "company", url: mcp.url }, { discover: false });
    const users = Array.from({ length: USERS }, (_, i) => `user-${i}`);
    for (const user of users) {
      await counted.set(`users/${user}/skills/notes.md`, doc("notes", user));
    }
    const resolvers = createUserResolvers({ registry, skills: counted });
    const collect = gc();
    const heap = () => (collect(), collect(), process.memoryUsage().heapUsed);
    const held: number[] = [];
    for (let round = 0; round < 5; round++) {
      resolvers.invalidate();
      const empty = heap();
      for (const user of users) await resolvers.forUser(user);
      held.push((heap() - empty) / USERS);
    }
    const perUser = held.sort((a, b) => a - b)[2];
    const requests = async (fn: () => Promise<unknown>) => {
      const [calls, http] = [counted.calls, mcp.requests.length];
      await fn();
      return { storage: counted.calls - calls, http: mcp.requests.length - http };
    };
    const cold = await requests(() => resolvers.resolve("user-0", "handbook"));
    const warmMcp = await requests(() => resolvers.resolve("user-1", "handbook"));
    const warmUser = await requests(() => resolvers.resolve("user-2", "notes"));
    resolvers.invalidate("user-3");
    const chain = await requests(() => resolvers.forUser("user-3"));
    const mine = await resolvers.resolve("user-7", "notes");
    console.log(
      `heap per cached user chain: ${
        (perUser / 1024).toFixed(2)
      } KiB (median of 5) (${resolvers.size} users cached)`,
    );
    console.log(`storage requests to build one user's chain (every ttlMs): ${chain.storage}`);
    console.log(
      `requests per resolve of the user's own skill:       ${warmUser.storage} storage, ${warmUser.http} MCP`,
    );
    console.log(
      `requests per resolve of an MCP skill, first user:   ${cold.storage} storage, ${cold.http} MCP (connect + listing + read)`,
    );
    console.log(
      `requests per resolve of an MCP skill, next users:   ${warmMcp.storage} storage, ${warmMcp.http} MCP (listing shared by server id)`,
    );
    console.log(`user-7 gets ${JSON.stringify(mine.skill.description)} from ${mine.source}`);
    const perUserTimes = await sample(300, (i) => resolvers.resolve(users[i % USERS], "notes"));
    const plain = createResolver({
      sources: [
        createStorageSource({ label: "user", storage, prefix: "users/user-0/skills/" }),
        [createMcpSkillSource({ name: "company", url: mcp.url })],
        createBuiltinSource(),
      ],
    });
    const plainTimes = await sample(300, () => plain.resolve("notes"));
    console.log(`warm resolve, 100 users round robin  median ${fmt(quantile(perUserTimes, 0.5))}`);
    console.log(
      `warm resolve, one plain resolver     median ${
        fmt(quantile(plainTimes, 0.5))
      }  → per-user is ${(quantile(perUserTimes, 0.5) / quantile(plainTimes, 0.5)).toFixed(2)}x`,
    );
    await resolvers.dispose();
    for (const source of plain.sources) {
      await (source as { dispose?: () => Promise<void> }).dispose?.();
    }
  } finally {
    client.disconnect();
    await unstorage.dispose();
    await mcp.close();
    await redis.stop();
  }
}

if (isMain(import.meta)) {
  await benchMultiUser();
  process.exit(0);
}
