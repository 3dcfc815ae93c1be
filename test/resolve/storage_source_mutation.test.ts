// A storage source passes the caller's signal to the storage it reads (lib/resolve/storage_source.ts;
// survivors of the second `resolve` run): every `get` and `keys` of a lookup and a listing gets the
// signal the resolver gave the source, so a slow store (Redis, a network disk) can stop early.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createMemoryStorage, createStorageSource } from "../../lib/mod.ts";
import { skillDoc } from "./_helpers.ts";

test("the caller's signal reaches every storage get and keys", async () => {
  const storage = createMemoryStorage({ initial: { "bwa/SKILL.md": skillDoc("bwa") } });
  const signals: Array<[string, AbortSignal | undefined]> = [];
  const get = storage.get.bind(storage);
  const keys = storage.keys.bind(storage);
  storage.get = (
    key,
    options,
  ) => (signals.push([`get ${key}`, options?.signal]), get(key, options));
  storage.keys = (prefix, options) => (
    signals.push([`keys ${prefix}`, options?.signal]), keys(prefix, options)
  );
  const source = createStorageSource({ label: "user", storage });
  const signal = new AbortController().signal;
  assert.equal((await source.get("bwa", { signal }))?.location, "bwa/SKILL.md");
  assert.deepEqual(await source.list({ signal }), ["bwa"]);
  assert.deepEqual(signals.map(([call]) => call), [
    "get bwa.md",
    "get bwa/SKILL.md",
    "keys bwa/",
    "keys ",
  ]);
  for (const [call, seen] of signals) assert.equal(seen, signal, call);
});
