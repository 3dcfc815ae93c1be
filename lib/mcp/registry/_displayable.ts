// Private: give ping results their notebook display; the renderer loads in the background.

import { lazyRenderer, withLazyDisplay } from "../../_display.ts";
import type { PingResult } from "./types.ts";

const renderer = lazyRenderer(() => import("./_display.ts"));

/** `rows`, given their notebook display: one line per server, what it answered or why not. */
export function displayablePings(rows: PingResult[]): PingResult[] {
  return withLazyDisplay(rows, renderer, (m, all) => m.pingsDisplay(all));
}
