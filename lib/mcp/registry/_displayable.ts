// Private: give ping results their notebook display; the renderer loads on first display.

import { withDisplay } from "../../_display.ts";
import type { PingResult } from "./types.ts";

/** `rows`, given their notebook display: one line per server, what it answered or why not. */
export function displayablePings(rows: PingResult[]): PingResult[] {
  return withDisplay(rows, async (all) => (await import("./_display.ts")).pingsDisplay(all));
}
