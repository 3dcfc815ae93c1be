/**
 * Browser page for the resolver tests: exposes the isomorphic entry "." as
 * `globalThis.__skillmux` so Playwright tests can drive it in real Chromium,
 * with the isomorphic subpaths those tests also call (`./resolve` in full, the
 * skill format's parse and render) and the IndexedDB adapter.
 *
 * @module
 */

import * as skillmux from "../../lib/mod.ts";
import * as resolve from "../../lib/resolve/mod.ts";
import { parseSkill, renderSkill } from "../../lib/skill/mod.ts";
import { createIndexedDbStorage } from "../../lib/storage/indexed_db.ts";

(globalThis as Record<string, unknown>).__skillmux = {
  ...skillmux,
  ...resolve,
  parseSkill,
  renderSkill,
  createIndexedDbStorage,
};
