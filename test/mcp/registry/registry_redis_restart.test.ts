// A Redis crash and restart in the middle of a run of registry updates: calls made while it is
// down fail with a StorageError that names the key and the store; once it is back, the same
// registry object works again and no acknowledged change is lost (Redis keeps an fsync'ed
// append-only file; the registry keeps no state that a failure could poison).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createStorage } from "unstorage";
import redisDriver from "unstorage/drivers/redis";
import { createMultiUserRegistry } from "../../../lib/mcp/registry/users.ts";
import { createUnstorageStorage } from "../../../lib/storage/unstorage.ts";
import { quietRedisErrors, type RedisServer, startRedis } from "../../storage/_redis.ts";

let redis: RedisServer;
let unstorage: ReturnType<typeof createStorage>;
before(async () => {
  redis = await startRedis();
  unstorage = createStorage({ driver: redisDriver({ url: redis.url, maxRetriesPerRequest: 1 }) });
  quietRedisErrors(unstorage);
});
after(async () => {
  await unstorage.dispose();
  await redis.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("Redis restart mid-run: clear errors, then recovery with every record", async () => {
  const registry = createMultiUserRegistry({
    storage: createUnstorageStorage(unstorage, { timeoutMs: 3_000 }),
    secrets: { key: new Uint8Array(32).fill(5) },
  });
  const ada = registry.forUser("ada");
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const { server } = await ada.add(
      { name: `s${i}`, url: `https://s${i}.example.com/mcp`, apiKey: `sk-${i}` },
      { discover: false },
    );
    ids.push(server.id);
  }
  const acknowledged = new Map<string, number>();
  const errors: Error[] = [];
  let phase: "before" | "down" | "after" = "before";
  let successesAfter = 0;
  for (let i = 0; i < 2_000 && successesAfter < 40; i++) {
    if (phase === "before" && acknowledged.size === 20 && i > 60) {
      await redis.kill();
      phase = "down";
    }
    if (phase === "down" && errors.length >= 3) {
      await redis.start();
      phase = "after";
    }
    const id = ids[i % ids.length];
    try {
      const { server } = await ada.update(id, { description: `run ${i}` }, { discover: false });
      acknowledged.set(id, server.revision!);
      if (phase === "after") successesAfter++;
    } catch (error) {
      assert.notEqual(phase, "before", `failed while Redis was up: ${error}`);
      errors.push(error as Error);
      await sleep(50);
    }
  }
  assert.equal(phase, "after");
  assert.equal(successesAfter, 40, "the registry recovered");
  assert.ok(errors.length >= 3);
  for (const error of errors) {
    assert.equal(error.name, "StorageError", `${error.name}: ${error.message}`);
    assert.match(
      error.message,
      /^Cannot (read|write|compare-and-set) storage key "registry\/servers\/s-[^"]+\.json" in unstorage \(redis\): /,
    );
    assert.doesNotMatch(error.message, /sk-\d/);
  }
  const servers = (await ada.list()).filter((s) => s.scope === "user");
  assert.deepEqual(servers.map((s) => s.id), ids, "every record is there");
  for (const server of servers) {
    assert.ok(server.revision! >= acknowledged.get(server.id)!, `${server.name} lost a change`);
    assert.equal(server.apiKey, `sk-${server.name.slice(1)}`);
  }
});
