// The shared storage conformance suite against unstorage: its memory driver, and its Redis
// driver on a real redis-server. Plus what is particular to the adapter: namespaces, foreign
// keys and values, and clear errors when Redis is gone.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Redis } from "ioredis";
import { createStorage } from "unstorage";
import memoryDriver from "unstorage/drivers/memory";
import redisDriver from "unstorage/drivers/redis";
import { createUnstorageStorage } from "../../lib/storage/unstorage.ts";
import { storageConformanceCases } from "./_conformance.ts";
import { quietRedisErrors, type RedisServer, startRedis } from "./_redis.ts";

describe("unstorage (memory driver) conformance", () => {
  for (const { name, run } of storageConformanceCases) {
    test(name, async () => {
      await run(createUnstorageStorage(createStorage({ driver: memoryDriver() })));
    });
  }
});

let redis: RedisServer;
let admin: Redis;
before(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url);
  admin.on("error", () => {}); // Redis is killed on purpose below
});
after(async () => {
  admin.disconnect();
  await redis.stop();
});

/** An unstorage over the test Redis; the adapter is under `base`. */
function redisStorage(base?: string) {
  const u = createStorage({ driver: redisDriver({ url: redis.url, maxRetriesPerRequest: 1 }) });
  quietRedisErrors(u);
  return { u, store: createUnstorageStorage(u, { base }) };
}

describe("unstorage (redis driver, real redis-server) conformance", () => {
  for (const { name, run } of storageConformanceCases) {
    test(name, async () => {
      await admin.flushdb();
      const { u, store } = redisStorage();
      try {
        await run(store);
      } finally {
        await u.dispose();
      }
    });
  }
});

describe("unstorage adapter", () => {
  test("keys live under the namespace, escaped, and other namespaces are untouched", async () => {
    await admin.flushdb();
    const { u, store } = redisStorage("tenant-a");
    const other = createUnstorageStorage(u, { base: "tenant-b" });
    try {
      await store.set("servers/q?a:b$.json", "42");
      await other.set("servers/x.json", "{}");
      assert.deepEqual((await admin.keys("*")).sort(), [
        "tenant-a:servers:q%3Fa%3Ab%24.json",
        "tenant-b:servers:x.json",
      ]);
      assert.equal(await store.get("servers/q?a:b$.json"), "42", "a string, not the number 42");
      await store.clear!();
      assert.deepEqual(await admin.keys("*"), ["tenant-b:servers:x.json"]);
      assert.equal(typeof store.compareAndSet, "function");
      assert.equal(createUnstorageStorage(u, { compareAndSet: false }).compareAndSet, undefined);
    } finally {
      await u.dispose();
    }
  });

  test("a value another program wrote that is not a string is a clear error", async () => {
    await admin.flushdb();
    await admin.set("odd", "[1,2]");
    const { u, store } = redisStorage();
    try {
      await assert.rejects(store.get("odd"), /Cannot read storage key "odd" .*not a string/);
    } finally {
      await u.dispose();
    }
  });

  test("Redis down: calls fail with StorageError naming the key; back up, they work", async () => {
    await admin.flushdb();
    const { u, store } = redisStorage();
    try {
      await store.set("kept.md", "kept");
      await redis.kill();
      const error = await store.get("kept.md").catch((e) => e);
      assert.equal(error.name, "StorageError");
      assert.equal(error.key, "kept.md");
      assert.match(error.message, /^Cannot read storage key "kept\.md" in unstorage \(redis\): /);
      await redis.start();
      let value: string | undefined;
      for (let i = 0; i < 50 && value === undefined; i++) {
        value = await store.get("kept.md").catch(() => undefined);
        if (value === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(value, "kept");
    } finally {
      await u.dispose();
    }
  });
});
