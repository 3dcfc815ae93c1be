// Private: an elicitation (`elicitation/create`) answered on the terminal. Form mode asks for each
// field of the server's flat schema in turn — text (with the email, uri and date formats checked),
// numbers and integers in range, yes/no, one choice or several from a numbered list — re-asking
// on bad input, then confirms; URL mode shows the URL and asks whether it was done. Whatever the
// server wrote is shown cleaned of hidden characters (and the CLI's writer escapes controls).

import type {
  ElicitField,
  ElicitRequestParams,
  ElicitResult,
} from "../mcp/client/client_handlers.ts";
import { stripHidden } from "../_text_clean.ts";

/** How the form talks to the person. */
export interface Asker {
  ask(question: string, options?: { signal?: AbortSignal }): Promise<string>;
  say(line: string): void;
  bold(text: string): string;
  dim(text: string): string;
}

interface Choice {
  value: unknown;
  label: string;
}

const clean = (text: unknown) => stripHidden(String(text ?? "")).replace(/\s+/g, " ").trim();

/** The choices of a single-select field, or of an array field's items. */
function choicesOf(field: Record<string, unknown>): Choice[] | undefined {
  const titled = (field.oneOf ?? field.anyOf) as Array<Record<string, unknown>> | undefined;
  if (Array.isArray(titled) && titled.every((c) => c && "const" in c)) {
    return titled.map((c) => ({ value: c.const, label: clean(c.title ?? c.const) }));
  }
  if (Array.isArray(field.enum)) {
    const names = Array.isArray(field.enumNames) ? field.enumNames : [];
    return field.enum.map((value, i) => ({ value, label: clean(names[i] ?? value) }));
  }
  return undefined;
}

function pick(choices: Choice[], text: string): Choice | undefined {
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= choices.length) return choices[n - 1];
  return choices.find((c) =>
    String(c.value) === text || c.label.toLowerCase() === text.toLowerCase()
  );
}

/** `text` as the field's value, or a problem to show. */
function parse(field: ElicitField, text: string): { value: unknown } | { problem: string } {
  const type = field.type;
  if (type === "boolean") {
    if (/^(y|yes|true|1)$/i.test(text)) return { value: true };
    if (/^(n|no|false|0)$/i.test(text)) return { value: false };
    return { problem: "answer y or n" };
  }
  if (type === "number" || type === "integer") {
    const n = Number(text);
    if (text === "" || !Number.isFinite(n)) return { problem: "expected a number" };
    if (type === "integer" && !Number.isInteger(n)) return { problem: "expected a whole number" };
    const { minimum, maximum } = field as { minimum?: number; maximum?: number };
    if (minimum !== undefined && n < minimum) return { problem: `at least ${minimum}` };
    if (maximum !== undefined && n > maximum) return { problem: `at most ${maximum}` };
    return { value: n };
  }
  if (type === "array") {
    const choices = choicesOf((field.items ?? {}) as Record<string, unknown>) ?? [];
    const picked = text.split(",").map((t) => t.trim()).filter(Boolean).map((t) =>
      pick(choices, t)
    );
    if (picked.some((c) => c === undefined)) return { problem: "pick numbers from the list" };
    const { minItems, maxItems } = field as { minItems?: number; maxItems?: number };
    if (minItems !== undefined && picked.length < minItems) return { problem: `pick ${minItems}+` };
    if (maxItems !== undefined && picked.length > maxItems) {
      return { problem: `pick at most ${maxItems}` };
    }
    return { value: [...new Set(picked.map((c) => c!.value))] };
  }
  const choices = choicesOf(field);
  if (choices) {
    const choice = pick(choices, text);
    return choice ? { value: choice.value } : { problem: "pick a number from the list" };
  }
  const { minLength, maxLength, format } = field as Record<string, unknown>;
  if (typeof minLength === "number" && text.length < minLength) {
    return { problem: `at least ${minLength} characters` };
  }
  if (typeof maxLength === "number" && text.length > maxLength) {
    return { problem: `at most ${maxLength} characters` };
  }
  if (format === "email" && !/^[^\s@]+@[^\s@]+$/.test(text)) return { problem: "not an email" };
  if (format === "uri" && !URL.canParse(text)) return { problem: "not a URL" };
  if (format === "date" && !/^\d{4}-\d\d-\d\d$/.test(text)) return { problem: "use YYYY-MM-DD" };
  return { value: text };
}

function hint(field: ElicitField): string {
  const choices = field.type === "array"
    ? choicesOf((field.items ?? {}) as Record<string, unknown>)
    : choicesOf(field);
  if (choices) return field.type === "array" ? "numbers, comma-separated" : "a number";
  if (field.type === "boolean") return "y/n";
  const format = (field as { format?: unknown }).format;
  return typeof format === "string" ? `${field.type}, ${format}` : String(field.type ?? "text");
}

function shown(field: ElicitField, value: unknown): string {
  if (field.type === "boolean") return value ? "y" : "n";
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/** Ask for one field until the answer fits; `undefined` for an optional field left empty. */
async function askField(
  io: Asker,
  key: string,
  field: ElicitField,
  required: boolean,
  signal: AbortSignal,
): Promise<unknown> {
  const title = clean((field as { title?: unknown }).title ?? key);
  const description = clean((field as { description?: unknown }).description);
  io.say(`  ${io.bold(title)}${required ? "*" : ""}${description ? ` — ${description}` : ""}`);
  const choices = field.type === "array"
    ? choicesOf((field.items ?? {}) as Record<string, unknown>)
    : choicesOf(field);
  choices?.forEach((c, i) => io.say(io.dim(`    ${i + 1}) ${c.label}`)));
  const fallback = field.default === undefined ? "" : ` [${clean(shown(field, field.default))}]`;
  for (;;) {
    const text = (await io.ask(`  ${key} (${hint(field)})${fallback}: `, { signal })).trim();
    if (text === "") {
      if (field.default !== undefined) return field.default;
      if (!required) return undefined;
      io.say(io.dim("    required"));
      continue;
    }
    const parsed = parse(field, text);
    if ("value" in parsed) return parsed.value;
    io.say(io.dim(`    ${parsed.problem}`));
  }
}

/** Answer `params` on the terminal: accept with the values, decline or cancel. */
export async function elicitOnTerminal(
  params: ElicitRequestParams,
  io: Asker,
  server: string,
  signal: AbortSignal,
): Promise<ElicitResult> {
  io.say(`${io.bold(`"${server}" asks:`)} ${clean(params.message)}`);
  if (params.mode === "url") {
    io.say(`  open: ${clean(params.url)}`);
    const done = await io.ask("  Done there? [Y = yes, n = decline, c = cancel] ", { signal });
    return {
      action: /^n/i.test(done.trim()) ? "decline" : /^c/i.test(done.trim()) ? "cancel" : "accept",
    };
  }
  const start = await io.ask("  Answer? [Y = yes, n = decline, c = cancel] ", { signal });
  if (/^n/i.test(start.trim())) return { action: "decline" };
  if (/^c/i.test(start.trim())) return { action: "cancel" };
  const schema = params.requestedSchema;
  const required = new Set(schema?.required ?? []);
  const content: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema?.properties ?? {})) {
    const value = await askField(io, key, field ?? {}, required.has(key), signal);
    if (value !== undefined) content[key] = value;
  }
  const send = await io.ask(`  Send these answers to "${server}"? [Y/n] `, { signal });
  return /^n/i.test(send.trim()) ? { action: "decline" } : { action: "accept", content };
}
