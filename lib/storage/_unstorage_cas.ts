// Private: an atomic compare-and-set under an unstorage instance, for the drivers that allow
// one — Redis (a Lua script through the driver's ioredis client) and the in-process memory
// driver (its Map). Other drivers get none, and the adapter leaves `compareAndSet` out.

/** What the adapter needs to know of an unstorage driver. */
export interface UnstorageDriverLike {
  /** The driver's name, e.g. `redis` or `memory`. */
  name?: string;
  /** The options the driver was built with (`base` for Redis). */
  options?: unknown;
  /** The underlying client: an ioredis client, the memory driver's Map, … */
  getInstance?: () => unknown;
}

/** A compare-and-set on one raw (already encoded) driver key. */
export type RawCompareAndSet = (
  key: string,
  expected: string | undefined,
  value: string | undefined,
) => Promise<boolean>;

interface RedisLike {
  eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
}

const SCRIPT = `local current = redis.call('GET', KEYS[1])
if ARGV[1] == '0' then
  if current then return 0 end
elseif current ~= ARGV[2] then
  return 0
end
if ARGV[3] == '1' then redis.call('SET', KEYS[1], ARGV[4]) else redis.call('DEL', KEYS[1]) end
return 1`;

/**
 * The compare-and-set of the driver mounted at `mountBase`, or `undefined` when the driver
 * cannot do one atomically. Keys given to it are relative to the mount.
 */
export function driverCompareAndSet(driver: UnstorageDriverLike): RawCompareAndSet | undefined {
  if (typeof driver.getInstance !== "function") return undefined;
  if (driver.name === "memory") {
    const map = driver.getInstance();
    if (!(map instanceof Map)) return undefined;
    return (key, expected, value) => {
      if ((map.has(key) ? map.get(key) : undefined) !== expected) return Promise.resolve(false);
      if (value === undefined) map.delete(key);
      else map.set(key, value);
      return Promise.resolve(true);
    };
  }
  if (driver.name === "redis") {
    const getInstance = driver.getInstance;
    const options = (driver.options ?? {}) as { base?: string };
    const base = (options.base ?? "").replace(/:$/, "");
    return async (key, expected, value) => {
      const client = getInstance() as RedisLike;
      const answer = await client.eval(
        SCRIPT,
        1,
        base === "" ? key : `${base}:${key}`,
        expected === undefined ? "0" : "1",
        expected ?? "",
        value === undefined ? "0" : "1",
        value ?? "",
      );
      return Number(answer) === 1;
    };
  }
  return undefined;
}
