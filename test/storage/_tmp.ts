/**
 * Temp folders for fs tests: `makeTempDir()` under `os.tmpdir()`, removed by
 * `removeTempDirs()` (register it with `after`).
 *
 * @module
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";

const made: string[] = [];

/** A fresh, empty temp folder (its real path). */
export async function makeTempDir(label = "skillmux-"): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), label));
  made.push(dir);
  return dir;
}

/** Remove every folder `makeTempDir` made. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
