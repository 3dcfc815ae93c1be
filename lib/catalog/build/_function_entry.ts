// Private: the catalog entry of a host function, after checking its name, description and handler.

import { TOOL_NAME } from "./_ids.ts";
import {
  canonicalJson,
  DESCRIPTION_MAX,
  digestOf,
  parameterWords,
  type RawEntry,
} from "./_raw_entry.ts";
import { cleanLine } from "../../_text_clean.ts";
import type { HostFunction } from "../model/types.ts";

/** The entry of host function `fn`; a bad name, description or handler throws a `TypeError`. */
export async function functionEntry(fn: HostFunction): Promise<RawEntry> {
  if (typeof fn?.name !== "string" || !TOOL_NAME.test(fn.name)) {
    throw new TypeError(
      `Host function ${
        JSON.stringify(fn?.name)
      }: the name must be 1-64 letters, digits, "_" or "-"`,
    );
  }
  if (typeof fn.description !== "string" || fn.description.trim() === "") {
    throw new TypeError(`Host function "${fn.name}": description must be a non-empty string`);
  }
  if (typeof fn.handler !== "function") {
    throw new TypeError(`Host function "${fn.name}": handler must be a function`);
  }
  const inputSchema = fn.inputSchema ?? { type: "object", properties: {} };
  const definition = canonicalJson({ name: fn.name, description: fn.description, inputSchema }, 2);
  const digest = await digestOf(definition);
  const tags = (fn.tags ?? []).map((t) => cleanLine(t, 64)).filter(Boolean);
  return {
    kind: "function",
    name: fn.name,
    preferredId: fn.name,
    description: cleanLine(fn.description, DESCRIPTION_MAX),
    source: "host",
    tags,
    keywords: parameterWords(inputSchema),
    needsConnection: false,
    remote: false,
    digest,
    inputSchema,
    definition,
    fn,
    indexKey: `${digest}\u0000${JSON.stringify(tags)}`,
  };
}
