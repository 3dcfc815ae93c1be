// Private: createToolDiscovery (see discovery.ts). One set of callable ids per conversation:
// the initial selection, plus what find_tools found, released at the start of the next step.

import { findTools, type FoundTool } from "../catalog/search/find_tools.ts";
import { findHeldTools, type HeldTool } from "../catalog/search/held_tools.ts";
import { cleanLine } from "../_text_clean.ts";
import type { CatalogEntry } from "../catalog/model/types.ts";
import { reply } from "./results.ts";
import { createToolSession } from "./_session.ts";
import {
  activateDefinition,
  entryDefinition,
  FIND_DEFINITION,
  FIND_TOOLS,
  toAnthropic,
  type ToolDefinition,
  toOpenAi,
} from "./tool_defs.ts";
import { executeToolCall } from "./execute.ts";
import type {
  AnthropicDiscoveryTool,
  ToolDiscovery,
  ToolDiscoveryOptions,
} from "./discovery_types.ts";
import type { ToolCall, ToolCallResult } from "./types.ts";

const MAX_QUERY_CHARS = 500;

/** The format, call id, name and arguments of a call in either format. */
function readCall(call: ToolCall) {
  if ((call as { type?: unknown })?.type === "tool_use") {
    const c = call as { id?: unknown; name?: unknown; input?: unknown };
    return {
      format: "anthropic" as const,
      id: String(c.id ?? ""),
      name: String(c.name ?? ""),
      args: c.input,
    };
  }
  const c = call as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  let args: unknown;
  try {
    const raw = c.function?.arguments ?? "{}";
    args = typeof raw === "string" ? JSON.parse(raw || "{}") : raw;
  } catch {
    args = undefined;
  }
  return {
    format: "openai" as const,
    id: String(c.id ?? ""),
    name: String(c.function?.name ?? ""),
    args,
  };
}

/**
 * Tools that fit but wait for approval: said, so the agent can tell the user what to approve
 * instead of searching on (their descriptions are not shown: they are not approved text).
 */
function heldLine(held: HeldTool[], command: string): string {
  if (held.length === 0) return "";
  const ids = held.map((h) => h.id);
  return `Waiting for a person's approval, not callable: ${ids.join(", ")}. If one is needed, ` +
    `ask the user to approve it (${command} ${ids.join(" ")}).`;
}

/** One line per entry found, remote descriptions marked as untrusted. */
function answer(
  query: string,
  found: FoundTool[],
  added: string[],
  full: string[],
  waiting: string,
): string {
  if (found.length === 0) {
    if (waiting) return `No callable tool fits "${cleanLine(query, 100)}". ${waiting}`;
    return `No tool fits "${
      cleanLine(query, 100)
    }". Try other words: the data, format or service, and the action.`;
  }
  const lines = found.map((f) =>
    `- ${f.id}: ${f.remote ? `[${f.source}, untrusted] ` : ""}${f.description} (matched ${f.why})`
  );
  const notes = [
    added.length > 0 ? `Callable from your next step: ${added.join(", ")}.` : "",
    full.length > 0 ? `Not added, the limit of tools is reached: ${full.join(", ")}.` : "",
    waiting,
  ].filter(Boolean);
  return [`Found ${found.length}:`, ...lines, ...notes].join("\n");
}

export function createDiscovery(options: ToolDiscoveryOptions): ToolDiscovery {
  const { catalog } = options;
  const session = options.session ?? createToolSession({ catalog });
  const owned = !options.session;
  const maxTools = options.maxTools ?? 32;
  const find = options.find !== false;
  const usable = (id: string, kinds: string[]) => {
    const entry = catalog.get(id);
    return entry && kinds.includes(entry.kind) ? entry : undefined;
  };
  const skills: CatalogEntry[] = (options.initial?.skills ?? [])
    .map((id) => usable(id, ["skill"])).filter((e) => e !== undefined);
  const active = new Set<string>();
  for (const id of options.initial?.tools ?? []) {
    if (usable(id, ["tool", "function"]) && active.size < maxTools) active.add(id);
  }
  const pending = new Set<string>();
  const deferred = new Set<string>();

  const advance = () => {
    for (const id of pending) if (usable(id, ["tool", "function"])) active.add(id);
    pending.clear();
    return names();
  };
  const names = () => [
    ...active,
    ...(skills.length > 0 ? ["activate_skill"] : []),
    ...(find ? [FIND_TOOLS] : []),
  ];
  const definitionsNow = (): ToolDefinition[] => {
    advance();
    const defs = [...active].map((id) => catalog.get(id)).filter((e) => e !== undefined)
      .map(entryDefinition);
    if (skills.length > 0) defs.push(activateDefinition(skills));
    if (find) defs.push(FIND_DEFINITION);
    return defs;
  };

  const findCall = (call: ToolCall): ToolCallResult => {
    const read = readCall(call);
    const query = (read.args as { query?: unknown } | undefined)?.query;
    const fail = (text: string) =>
      reply(read.format, read.id, FIND_TOOLS, true, [{ type: "text", text }], []);
    if (typeof query !== "string" || query.trim() === "") {
      return fail(`Invalid arguments for "${FIND_TOOLS}": query must be a non-empty string`);
    }
    if (query.length > MAX_QUERY_CHARS) {
      return fail(
        `Invalid arguments for "${FIND_TOOLS}": query is over ${MAX_QUERY_CHARS} characters`,
      );
    }
    const found = findTools(catalog, query, { limit: options.limit ?? 5 });
    const added: string[] = [];
    const full: string[] = [];
    for (const f of found) {
      if (active.has(f.id) || pending.has(f.id)) continue;
      if (active.size + pending.size >= maxTools) full.push(f.id);
      else (pending.add(f.id), added.push(f.id));
    }
    const held = findHeldTools(catalog, query, { limit: options.limit ?? 5 });
    const waiting = heldLine(held, options.approveCommand ?? "skillmux approve");
    const text = answer(query, found, added, full, waiting);
    return reply(read.format, read.id, FIND_TOOLS, false, [{ type: "text", text }], []);
  };

  return {
    session,
    get active() {
      return [...active];
    },
    advance,
    definitions: ((format: "openai" | "anthropic", opts: { deferLoading?: boolean } = {}) => {
      const defs = definitionsNow();
      if (format === "openai") return defs.map(toOpenAi);
      const out: AnthropicDiscoveryTool[] = defs.map(toAnthropic);
      if (opts.deferLoading) {
        for (const entry of catalog.entries) {
          if (entry.kind === "skill" || active.has(entry.id)) continue;
          deferred.add(entry.id);
          out.push({ ...toAnthropic(entryDefinition(entry)), defer_loading: true });
        }
      }
      return out;
    }) as ToolDiscovery["definitions"],
    async handle(call, callOptions = {}) {
      const read = readCall(call);
      if (find && read.name === FIND_TOOLS) return findCall(call);
      const allow = [...active, ...[...deferred].filter((id) => !active.has(id))];
      return await executeToolCall(call, {
        catalog,
        session,
        allow,
        skills: skills.map((s) => s.id),
        signal: callOptions.signal,
        timeoutMs: options.timeoutMs,
      });
    },
    async close() {
      if (owned) await session.close();
    },
  };
}
