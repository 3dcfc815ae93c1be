// Private: what both framework adapters build on. The selection, its assembled prompt and one
// discovery session; every call goes through the session (executeToolCall underneath).

import { selectForRequest } from "../catalog/select/select.ts";
import { assemblePrompt } from "../prompt/assemble.ts";
import { createToolDiscovery } from "../prompt/discovery.ts";
import {
  activateDefinition,
  entryDefinition,
  FIND_DEFINITION,
  type ToolDefinition,
} from "../prompt/tool_defs.ts";
import type { ToolDiscovery } from "../prompt/discovery_types.ts";
import type { AssembledPrompt, ToolCallResult } from "../prompt/types.ts";
import type { FrameworkToolsOptions, HeldFrameworkTool } from "./types.ts";
import type { Selection } from "../catalog/model/select_types.ts";
import { findHeldTools, heldToolsNotice } from "../catalog/search/held_tools.ts";
import type { Catalog } from "../catalog/model/types.ts";

export interface Toolkit {
  system: string;
  prompt: AssembledPrompt;
  /** The tools and functions held for approval, those that fit the request first. */
  held: HeldFrameworkTool[];
  /** Problems met while assembling, and a `held` line when tools wait for approval. */
  diagnostics: Array<{ id?: string; problem: string; message: string }>;
  discovery: ToolDiscovery;
  /** Every definition that may be callable: all usable tools in discovery mode, else those offered. */
  definitions: ToolDefinition[];
  run(name: string, input: unknown, callId: string, signal?: AbortSignal): Promise<ToolCallResult>;
  close(): Promise<void>;
}

const FIND_HINT =
  "When none of the tools offered fits a step, call find_tools with a few specific words; the tools it finds can be called from the next step.";

/**
 * Held tools, said: to the developer as a diagnostic, to the model when some fit the request.
 * Whether one fits is the selection's verdict, else the evidence `findHeldTools` weighs.
 */
function heldReport(
  catalog: Catalog,
  request: string,
  selection: Selection,
  command: string,
): { held: HeldFrameworkTool[]; diagnostic?: Toolkit["diagnostics"][number]; system: string } {
  const judged = new Map((selection.held ?? []).map((h) => [h.id, h.fits]));
  const fitting = new Set(findHeldTools(catalog, request, { limit: 50 }).map((h) => h.id));
  const held: HeldFrameworkTool[] = catalog.held.flatMap(({ entry }) =>
    entry.kind === "skill" ? [] : [{
      id: entry.id,
      kind: entry.kind,
      source: entry.source,
      approval: entry.approval === "changed" ? "changed" as const : "pending" as const,
      fits: judged.get(entry.id) ?? fitting.has(entry.id),
    }]
  ).sort((a, b) => Number(b.fits) - Number(a.fits));
  if (held.length === 0) return { held, system: "" };
  const notice = heldToolsNotice(held.map((h) => h.id), { command });
  const fits = held.filter((h) => h.fits).slice(0, 10).map((h) => h.id);
  const system = fits.length === 0
    ? ""
    : `Tools that fit this request wait for the user's approval and cannot be called yet: ${
      fits.join(", ")
    }. If one is needed, tell the user to approve it (${command} ${fits.join(" ")}).`;
  return { held, diagnostic: { problem: "held", message: notice }, system };
}

export async function buildToolkit(options: FrameworkToolsOptions): Promise<Toolkit> {
  const { catalog, request } = options;
  const skillMode = options.skills ?? "tool";
  const selection = options.selection ??
    await selectForRequest(catalog, request, { ...options.select, signal: options.signal });
  const prompt = await assemblePrompt({
    request,
    selection,
    catalog,
    skills: skillMode,
    budget: options.budget,
    session: options.session,
    signal: options.signal,
    countTokens: options.countTokens,
  });
  const command = options.approveCommand ?? "skillmux approve";
  const report = heldReport(catalog, request, selection, command);
  const find = options.discovery === true;
  const skills = prompt.loaded.skills.filter((s) => !s.inline).map((s) => s.id);
  const discovery = await createToolDiscovery({
    catalog,
    initial: { tools: prompt.loaded.tools.map((t) => t.id), skills },
    find,
    limit: options.findLimit,
    maxTools: options.maxTools,
    session: prompt.session,
    timeoutMs: options.timeoutMs,
    approveCommand: command,
  });
  const offered = new Set(discovery.active);
  const entries = catalog.entries.filter((e) => e.kind !== "skill" && (find || offered.has(e.id)));
  const definitions = entries.map(entryDefinition);
  const skillEntries = skills.map((id) => catalog.get(id)).filter((e) => e !== undefined);
  if (skillEntries.length > 0) definitions.push(activateDefinition(skillEntries));
  if (find) definitions.push(FIND_DEFINITION);
  const notes = [find ? FIND_HINT : "", report.system].filter(Boolean);
  return {
    system: notes.length > 0
      ? `${prompt.system.trimEnd()}\n\n${notes.join("\n\n")}\n`
      : prompt.system,
    prompt,
    held: report.held,
    diagnostics: [...prompt.diagnostics, ...(report.diagnostic ? [report.diagnostic] : [])],
    discovery,
    definitions,
    run: (name, input, callId, signal) =>
      discovery.handle(
        { type: "tool_use", id: callId, name, input: input as Record<string, unknown> },
        { signal },
      ),
    async close() {
      if (!options.session) await prompt.session.close();
    },
  };
}
