// Private: what both framework adapters build on. The selection, its assembled prompt and one
// discovery session; every call goes through the session (executeToolCall underneath).

import { selectForRequest } from "../catalog/select.ts";
import { assemblePrompt } from "../prompt/assemble.ts";
import { createToolDiscovery } from "../prompt/discovery.ts";
import { FIND_DEFINITION } from "../prompt/_discovery.ts";
import { activateDefinition, entryDefinition, type ToolDefinition } from "../prompt/_tool_defs.ts";
import type { ToolDiscovery } from "../prompt/discovery_types.ts";
import type { AssembledPrompt, ToolCallResult } from "../prompt/types.ts";
import type { FrameworkToolsOptions } from "./types.ts";

export interface Toolkit {
  system: string;
  prompt: AssembledPrompt;
  discovery: ToolDiscovery;
  /** Every definition that may be callable: all usable tools in discovery mode, else those offered. */
  definitions: ToolDefinition[];
  run(name: string, input: unknown, callId: string, signal?: AbortSignal): Promise<ToolCallResult>;
  close(): Promise<void>;
}

const FIND_HINT =
  "When none of the tools offered fits a step, call find_tools with a few specific words; the tools it finds can be called from the next step.";

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
  });
  const offered = new Set(discovery.active);
  const entries = catalog.entries.filter((e) => e.kind !== "skill" && (find || offered.has(e.id)));
  const definitions = entries.map(entryDefinition);
  const skillEntries = skills.map((id) => catalog.get(id)).filter((e) => e !== undefined);
  if (skillEntries.length > 0) definitions.push(activateDefinition(skillEntries));
  if (find) definitions.push(FIND_DEFINITION);
  return {
    system: find ? `${prompt.system.trimEnd()}\n\n${FIND_HINT}\n` : prompt.system,
    prompt,
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
