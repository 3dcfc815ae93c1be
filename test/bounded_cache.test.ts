// Private bounded cache: at most `max` entries; a new key in a full cache forgets the oldest key,
// the least recently used one, or everything.
import assert from "node:assert/strict";
import { test } from "node:test";
import { BoundedCache } from "../lib/_bounded_cache.ts";

const keys = (cache: BoundedCache<string, number>, all: string[]) =>
  all.filter((k) => cache.has(k));

test("oldest: a new key in a full cache forgets the key set first; a hit or a re-set keeps the order", () => {
  const cache = new BoundedCache<string, number>(3);
  cache.set("a", 1).set("b", 2).set("c", 3);
  assert.equal(cache.get("a"), 1);
  cache.set("a", 10); // held: no room made, keeps its place
  assert.equal(cache.size, 3);
  cache.set("d", 4);
  assert.deepEqual(keys(cache, ["a", "b", "c", "d"]), ["b", "c", "d"]);
  assert.equal(cache.get("a"), undefined);
  cache.set("e", 5);
  assert.deepEqual(keys(cache, ["b", "c", "d", "e"]), ["c", "d", "e"]);
});

test("used: a hit or a re-set makes the key newest, so the least recently used goes first", () => {
  const cache = new BoundedCache<string, number>(3, "used");
  cache.set("a", 1).set("b", 2).set("c", 3);
  assert.equal(cache.get("a"), 1);
  cache.set("d", 4);
  assert.deepEqual(keys(cache, ["a", "b", "c", "d"]), ["a", "c", "d"]);
  cache.set("c", 30);
  cache.set("e", 5);
  assert.deepEqual(keys(cache, ["a", "c", "d", "e"]), ["c", "d", "e"]);
  assert.equal(cache.get("c"), 30);
  assert.equal(cache.get("zz"), undefined);
  assert.equal(cache.size, 3);
});

test("all: a new key in a full cache forgets everything before it is set", () => {
  const cache = new BoundedCache<string, number>(2, "all");
  cache.set("a", 1).set("b", 2);
  cache.set("b", 20); // held: nothing forgotten
  assert.deepEqual(keys(cache, ["a", "b"]), ["a", "b"]);
  cache.set("c", 3);
  assert.deepEqual(keys(cache, ["a", "b", "c"]), ["c"]);
  assert.equal(cache.delete("c"), true);
  assert.equal(cache.size, 0);
  cache.set("x", 1).clear();
  assert.equal(cache.size, 0);
});
