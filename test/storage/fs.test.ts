import { after, describe, test } from "node:test";
import * as path from "node:path";
import { createFsStorage } from "../../lib/storage/fs.ts";
import { storageConformanceCases } from "./_conformance.ts";
import { makeTempDir, removeTempDirs } from "./_tmp.ts";

after(removeTempDirs);

describe("fs storage conformance", () => {
  for (const { name, run } of storageConformanceCases) {
    test(name, async () => {
      // A root that does not exist yet: the first write creates it.
      await run(createFsStorage({ root: path.join(await makeTempDir(), "root") }));
    });
  }
});

describe("fs storage conformance, private mode", () => {
  for (const { name, run } of storageConformanceCases) {
    test(name, async () => {
      await run(createFsStorage({ root: await makeTempDir(), private: true }));
    });
  }
});
