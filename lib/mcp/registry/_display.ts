// Private: how server pings show in a notebook (see lib/_display.ts); loaded on first display.

import type { DisplayBundle } from "../../_display.ts";
import { tableDisplay } from "../../_display_html.ts";
import type { PingResult } from "./types.ts";

const HEADERS = [
  "Server",
  "Status",
  "Server info",
  "Protocol",
  "Transport",
  "Latency",
  "Resources",
  "Tools",
];

/** Pings' notebook display: one line per server, what it answered or why not. */
export function pingsDisplay(all: readonly PingResult[]): DisplayBundle {
  {
    const cells = all.map((r) =>
      r.ok
        ? [
          r.name,
          "ok",
          `${r.serverInfo.name} ${r.serverInfo.version}`,
          r.protocolVersion,
          r.transport,
          `${Math.round(r.latencyMs)} ms`,
          String(r.resources),
          String(r.tools),
        ]
        : [r.name, `${r.kind}: ${r.error}`, "", "", "", "", "", ""]
    );
    const up = all.filter((r) => r.ok).length;
    return tableDisplay(
      "skillmux-pings",
      `${up} of ${all.length} servers answered`,
      HEADERS,
      cells,
    );
  }
}
