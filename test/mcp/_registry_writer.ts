// A child process for the registry concurrency test: `count` updates of two servers of user
// "ada" in a multi-user registry on Redis, then one JSON line on stdout.
//   <runtime> test/mcp/_registry_writer.ts <redis url> <label> <count> <shared id> <own id> <cas|lww>
import process from "node:process";
import { createStorage } from "unstorage";
import redisDriver from "unstorage/drivers/redis";
import { createMultiUserRegistry } from "../../lib/mcp/registry/users.ts";
import { createUnstorageStorage } from "../../lib/storage/unstorage.ts";

const [url, label, count, shared, own, mode] = process.argv.slice(2);
const unstorage = createStorage({ driver: redisDriver({ url }) });
const registry = createMultiUserRegistry({
  storage: createUnstorageStorage(unstorage, { compareAndSet: mode === "cas" }),
});
const ada = registry.forUser("ada");
for (let i = 0; i < Number(count); i++) {
  await ada.update(shared, { description: `${label} ${i}` }, { discover: false });
  await ada.update(own, { description: `${label} ${i}` }, { discover: false });
}
await unstorage.dispose();
console.log(JSON.stringify({ label, updates: Number(count) * 2 }));
process.exit(0);
