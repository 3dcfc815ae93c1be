/**
 * Browser page for the resolver tests: exposes the isomorphic entry "." as
 * `globalThis.__skillmux` so Playwright tests can drive it in real Chromium.
 *
 * @module
 */

import * as skillmux from "../../lib/mod.ts";
import { createIndexedDbStorage } from "../../lib/storage/indexed_db.ts";

(globalThis as Record<string, unknown>).__skillmux = { ...skillmux, createIndexedDbStorage };
