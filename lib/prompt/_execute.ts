// Private: executeToolCall (see execute.ts).

import { Validator } from "@cfworker/json-schema";
import { raceSignal, scopedSignal } from "../_abort.ts";
import { addressesModel } from "../catalog/_text.ts";
import type { CatalogEntry } from "../catalog/types.ts";
import type { ContentBlock } from "../mcp/types.ts";
import { fence, skillText } from "./_fence.ts";
import { reply } from "./_results.ts";
import { ACTIVATE_SKILL } from "./_tool_defs.ts";
import { createToolSession } from "./_session.ts";
import type { ExecuteToolCallOptions, ToolCall, ToolCallResult } from "./types.ts";

const DEFAULT_TIMEOUT_MS = 60_000;

/** Validators by schema digest: building one is the costly part. */
const validators = new Map<string, Validator>();

/** The call's format, id, tool name and arguments, or why it cannot be read. */
function readCall(call: ToolCall): {
  format: "openai" | "anthropic";
  callId: string;
  name: string;
  args?: Record<string, unknown>;
  problem?: string;
} {
  if (call && (call as { type?: unknown }).type === "tool_use") {
    const c = call as { id?: unknown; name?: unknown; input?: unknown };
    const input = c.input ?? {};
    const ok = input !== null && typeof input === "object" && !Array.isArray(input);
    return {
      format: "anthropic",
      callId: String(c.id ?? ""),
      name: String(c.name ?? ""),
      ...(ok ? { args: input as Record<string, unknown> } : { problem: "input must be an object" }),
    };
  }
  const fn = (call as { function?: { name?: unknown; arguments?: unknown } })?.function;
  const callId = String((call as { id?: unknown })?.id ?? "");
  const name = String(fn?.name ?? "");
  const raw = fn?.arguments ?? "{}";
  try {
    const args = typeof raw === "string" ? JSON.parse(raw === "" ? "{}" : raw) : raw;
    if (args === null || typeof args !== "object" || Array.isArray(args)) throw new Error();
    return { format: "openai", callId, name, args };
  } catch {
    return { format: "openai", callId, name, problem: "arguments must be a JSON object" };
  }
}

/** Up to five problems of `args` against the entry's input schema (none: valid). */
export function schemaProblems(entry: CatalogEntry, args: Record<string, unknown>): string[] {
  const schema = entry.inputSchema ?? { type: "object" };
  let validator = validators.get(entry.digest);
  if (!validator) {
    const draft = String(schema.$schema ?? "").includes("draft-07")
      ? "7"
      : String(schema.$schema ?? "").includes("draft-04")
      ? "4"
      : "2020-12";
    validator = new Validator(schema as Record<string, unknown>, draft, false);
    if (validators.size > 1_000) validators.clear();
    validators.set(entry.digest, validator);
  }
  const result = validator.validate(args);
  if (result.valid) return [];
  const leaves = result.errors.filter((e) => !/^(properties|allOf|anyOf|\$ref)$/.test(e.keyword));
  return (leaves.length > 0 ? leaves : result.errors).slice(0, 5).map((e) =>
    `${e.instanceLocation === "#" ? "arguments" : e.instanceLocation.replace(/^#/, "")}: ${e.error}`
  );
}

/** A host function's value as content. */
function valueContent(value: unknown): ContentBlock[] {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "null";
  return [{ type: "text", text }];
}

export async function execute(
  call: ToolCall,
  options: ExecuteToolCallOptions,
): Promise<ToolCallResult> {
  const { catalog } = options;
  const read = readCall(call);
  const fail = (id: string, text: string) =>
    reply(read.format, read.callId, id, true, [{ type: "text", text }], []);
  if (read.problem) return fail(read.name, `Tool "${read.name}": ${read.problem}`);
  const args = read.args!;
  if (read.name === ACTIVATE_SKILL) return await activate(read, args, options);
  const entry = catalog.get(read.name);
  const allowed = options.allow === undefined || options.allow.includes(read.name);
  if (!entry || entry.kind === "skill" || !allowed) {
    return fail(
      read.name,
      `There is no tool "${read.name.slice(0, 80)}" here; use one of the tools offered`,
    );
  }
  const problems = schemaProblems(entry, args);
  if (problems.length > 0) {
    return fail(entry.id, `Invalid arguments for "${entry.id}": ${problems.join("; ")}`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // A host function gets one deadline; an MCP tool the client's call timer, which its progress
  // notifications start again (a long tool that reports progress is not cut off).
  const scope = scopedSignal(
    [options.signal],
    entry.kind === "function" ? timeoutMs : undefined,
    `"${entry.id}" did not finish within ${timeoutMs} ms`,
  );
  const session = options.session ?? createToolSession({ catalog });
  try {
    if (entry.kind === "function") {
      const fn = catalog.hostFunction(entry.id)!;
      const value = await raceSignal(
        Promise.resolve().then(() => fn.handler(args, { signal: scope.signal })),
        scope.signal,
      );
      return reply(read.format, read.callId, entry.id, false, valueContent(value), []);
    }
    const client = await session.client(entry.id, { signal: scope.signal });
    const result = await client.callTool(entry.name, args, { signal: scope.signal, timeoutMs });
    const text = result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    const flags = addressesModel(text).map((why) => `The output of "${entry.id}" ${why}`);
    return reply(
      read.format,
      read.callId,
      entry.id,
      result.isError === true,
      result.content,
      flags,
      result.structuredContent,
    );
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const message = error instanceof Error ? error.message : String(error);
    return fail(entry.id, `"${entry.id}" failed: ${message.slice(0, 1_000)}`);
  } finally {
    scope.dispose();
    if (!options.session) await session.close();
  }
}

/** `activate_skill`: the skill's text, fenced when it came from a remote source. */
async function activate(
  read: ReturnType<typeof readCall>,
  args: Record<string, unknown>,
  options: ExecuteToolCallOptions,
): Promise<ToolCallResult> {
  const name = typeof args.name === "string" ? args.name : "";
  const fail = (text: string) =>
    reply(read.format, read.callId, ACTIVATE_SKILL, true, [{ type: "text", text }], []);
  if (!(options.skills ?? []).includes(name)) {
    return fail(
      `No skill "${name.slice(0, 80)}" to activate; choose one of: ${
        (options.skills ?? []).join(", ")
      }`,
    );
  }
  try {
    const entry = options.catalog.get(name)!;
    const { skill } = await options.catalog.loadSkill(name, { signal: options.signal });
    const text = skillText(skill);
    const shown = entry.remote ? fence(entry.source, "skill", name, text, 16_000).text : text;
    const flags = entry.remote
      ? addressesModel(text).map((why) => `Remote skill "${name}" ${why}`)
      : [];
    return reply(
      read.format,
      read.callId,
      ACTIVATE_SKILL,
      false,
      [{ type: "text", text: shown }],
      flags,
    );
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    return fail(`Cannot load skill "${name}": ${(error as Error).message}`);
  }
}
