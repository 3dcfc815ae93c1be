// Private: executeToolCall (see execute.ts).

import { raceSignal, scopedSignal } from "../_abort.ts";
import { addressesModel } from "../_text_clean.ts";
import type { ContentBlock } from "../mcp/protocol/types.ts";
import { fence, skillText } from "./fence.ts";
import { reply } from "./results.ts";
import { schemaProblems } from "./check_arguments.ts";
import { ACTIVATE_SKILL } from "./tool_defs.ts";
import { FILE_MAX_CHARS, filesNote, fileText, isFenced, READ_SKILL_FILE } from "./_skill_files.ts";
import { createToolSession } from "./_session.ts";
import type { ExecuteToolCallOptions, ToolCall, ToolCallResult } from "./types.ts";

const DEFAULT_TIMEOUT_MS = 60_000;

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
  if (read.name === READ_SKILL_FILE) return await readFile(read, args, options);
  const entry = catalog.get(read.name);
  const allowed = options.allow === undefined || options.allow.includes(read.name);
  if (!entry || entry.kind === "skill" || !allowed) {
    return fail(
      read.name,
      `There is no tool "${read.name.slice(0, 80)}" here; use one of the tools offered`,
    );
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const problems = schemaProblems(entry, args, timeoutMs);
  if (problems.length > 0) {
    return fail(entry.id, `Invalid arguments for "${entry.id}": ${problems.join("; ")}`);
  }
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

/** `activate_skill`: the skill's text, fenced when it came from a remote source or a registry. */
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
    const hit = await options.catalog.loadSkill(name, { signal: options.signal });
    const body = skillText(hit.skill);
    const note = filesNote(hit, name);
    const text = `${body}${note}`;
    const fenced = entry.remote || entry.fenced === true;
    // The file list goes after the cut text, so a long skill still names its files.
    const shown = fenced ? fence(entry.source, "skill", name, body, 16_000, note).text : text;
    const what = entry.remote ? "Remote" : "Community";
    const flags = fenced ? addressesModel(text).map((why) => `${what} skill "${name}" ${why}`) : [];
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

/** `read_skill_file`: one listed file of a selected skill, fenced as the skill is. */
async function readFile(
  read: ReturnType<typeof readCall>,
  args: Record<string, unknown>,
  options: ExecuteToolCallOptions,
): Promise<ToolCallResult> {
  const name = typeof args.skill === "string" ? args.skill : "";
  const path = typeof args.path === "string" ? args.path.replace(/^\.\//, "") : "";
  const answer = (text: string, isError: boolean, flags: string[] = []) =>
    reply(read.format, read.callId, READ_SKILL_FILE, isError, [{ type: "text", text }], flags);
  if (!(options.skillFiles ?? []).includes(name)) {
    return answer(
      `No skill "${name.slice(0, 80)}" to read files of; choose one of: ${
        (options.skillFiles ?? []).join(", ")
      }`,
      true,
    );
  }
  try {
    const entry = options.catalog.get(name)!;
    const hit = await options.catalog.loadSkill(name, { signal: options.signal });
    if (!hit.files.some((f) => f.path === path)) {
      const some = hit.files.slice(0, 20).map((f) => f.path).join(", ");
      return answer(
        `Skill "${name}" has no file ${JSON.stringify(path.slice(0, 200))}${
          some ? `; its files: ${some}` : "; it has no files"
        }`,
        true,
      );
    }
    const { text, binary } = fileText(path, await hit.readFile(path, { signal: options.signal }));
    if (binary) return answer(text, false);
    const fenced = isFenced(entry);
    const shown = fenced
      ? fence(entry.source, "skill-file", `${name}/${path}`, text, FILE_MAX_CHARS).text
      : text.length > FILE_MAX_CHARS
      ? `${text.slice(0, FILE_MAX_CHARS)}\n[… ${text.length - FILE_MAX_CHARS} characters cut]`
      : text;
    const what = entry.remote ? "A file of remote skill" : "A file of community skill";
    const flags = fenced ? addressesModel(text).map((why) => `${what} "${name}" ${why}`) : [];
    return answer(shown, false, flags);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    return answer(`Cannot read ${path} of skill "${name}": ${(error as Error).message}`, true);
  }
}
