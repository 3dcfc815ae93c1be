// Two processes × 200 updates of the same server (and 200 of their own) against a real Redis,
// then a count. With compare-and-set (unstorage over Redis) every update lands; with
// compareAndSet turned off, the registry is last-writer-wins: records stay whole and nothing
// else is lost, but concurrent updates of one server may overwrite each other.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { after, before, test } from "node:test";
import { createStorage } from "unstorage";
import redisDriver from "unstorage/drivers/redis";
import { createMultiUserRegistry } from "../../../lib/mcp/registry/users.ts";
import { createUnstorageStorage } from "../../../lib/storage/unstorage.ts";
import { type RedisServer, startRedis } from "../../storage/_redis.ts";

const WRITER = fileURLToPath(new URL("../_registry_writer.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const IS_DENO = "Deno" in globalThis;
const COUNT = 200;

let redis: RedisServer;
let unstorage: ReturnType<typeof createStorage>;
before(async () => {
  redis = await startRedis();
  unstorage = createStorage({ driver: redisDriver({ url: redis.url }) });
});
after(async () => {
  await unstorage.dispose();
  await redis.stop();
});

function writer(args: string[]): Promise<string> {
  const argv = IS_DENO ? ["run", "-A", WRITER, ...args] : ["--import", "tsx", WRITER, ...args];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { cwd: ROOT, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`writer ${args[1]} failed: ${stderr || error.message}`));
      else resolve(stdout.trim());
    });
  });
}

async function race(mode: "cas" | "lww") {
  const storage = createUnstorageStorage(unstorage, { compareAndSet: mode === "cas" });
  const ada = createMultiUserRegistry({ storage }).forUser("ada");
  const add = async (name: string) =>
    (await ada.add({ name: `${mode}-${name}`, url: `https://${mode}-${name}.example.com/mcp` }, {
      discover: false,
    })).server.id;
  const [shared, ownA, ownB] = [await add("shared"), await add("a"), await add("b")];
  const outputs = await Promise.all([
    writer([redis.url, "A", String(COUNT), shared, ownA, mode]),
    writer([redis.url, "B", String(COUNT), shared, ownB, mode]),
  ]);
  assert.deepEqual(outputs.map((o) => JSON.parse(o).updates), [2 * COUNT, 2 * COUNT]);
  const servers = (await ada.list()).filter((s) => s.name.startsWith(`${mode}-`));
  const revision = (id: string) => servers.find((s) => s.id === id)?.revision;
  return { servers, shared: revision(shared)!, ownA: revision(ownA), ownB: revision(ownB) };
}

test("compare-and-set: 2 processes × 200 updates of one server all land", async () => {
  const { servers, shared, ownA, ownB } = await race("cas");
  assert.equal(servers.length, 3, "no record lost");
  assert.equal(shared, 1 + 2 * COUNT, "every update of the shared server counted");
  assert.equal(ownA, 1 + COUNT);
  assert.equal(ownB, 1 + COUNT);
  assert.match(servers[0].description!, /^[AB] 199$/);
});

test("last-writer-wins (no compareAndSet): records stay whole, other servers lose nothing", async () => {
  const { servers, shared, ownA, ownB } = await race("lww");
  assert.equal(servers.length, 3, "no record lost");
  assert.equal(ownA, 1 + COUNT, "one writer per server: nothing lost");
  assert.equal(ownB, 1 + COUNT);
  assert.ok(shared > COUNT && shared <= 1 + 2 * COUNT, `shared revision ${shared}`);
  console.log(
    `# last-writer-wins: ${1 + 2 * COUNT - shared} of ${
      2 * COUNT
    } updates of one server overwritten`,
  );
});
