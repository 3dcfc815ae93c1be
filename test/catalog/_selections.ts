// Stand-ins for the selection and evaluation tests: a model that answers the same text and records
// what it was sent, and a selection function that answers each request from a script.
import type { Selection, SelectModel } from "../../lib/mod.ts";
import type { ChatMessage } from "../../lib/catalog/mod.ts";

/** A model answering `answer` and recording the messages of each call. */
export function model(answer: unknown): { llm: SelectModel; calls: ChatMessage[][] } {
  const calls: ChatMessage[][] = [];
  const llm = (messages: ChatMessage[]) => {
    calls.push(messages);
    return Promise.resolve(answer as string);
  };
  return { llm, calls };
}

/** A selection function answering each request with the picks in `script`, plus `extra` fields. */
export function scripted(
  script: Record<string, { skills?: string[]; tools?: string[] }>,
  extra: Partial<Selection> = {},
) {
  return (_catalog: unknown, request: string): Promise<Selection> =>
    Promise.resolve({
      via: "llm",
      complexity: "simple",
      skills: script[request]?.skills ?? [],
      tools: script[request]?.tools ?? [],
      needsExternal: false,
      reasoning: "",
      diagnostics: [],
      ...extra,
    });
}
