import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createMemoryStorage, InvalidStorageKeyError } from "../../lib/storage/mod.ts";
import { storageConformanceCases } from "./_conformance.ts";

describe("memory storage conformance", () => {
  for (const { name, run } of storageConformanceCases) {
    test(name, async () => {
      await run(createMemoryStorage());
    });
  }
});

describe("memory storage", () => {
  test("initial entries are copied and validated", async () => {
    const initial: Record<string, string> = { "a.md": "A" };
    const store = createMemoryStorage({ initial });
    initial["b.md"] = "B";
    assert.deepEqual(await store.keys(), ["a.md"]);
    assert.throws(() => createMemoryStorage({ initial: { "../x": "x" } }), InvalidStorageKeyError);
  });
});
