// Private: the OpenAI-compatible chat completions adapter (loaded on first use).

import * as v from "valibot";
import { postJson } from "./_llm_http.ts";
import { LlmError } from "./llm_error.ts";
import type { ChatMessage, OpenAiModelOptions } from "../model/select_types.ts";

const Completion = v.looseObject({
  choices: v.pipe(
    v.array(v.looseObject({ message: v.looseObject({ content: v.nullish(v.string()) }) })),
    v.minLength(1),
  ),
});

/** One chat completion; resolves to the first choice's text. */
export async function chat(
  options: OpenAiModelOptions,
  messages: ChatMessage[],
  { signal }: { signal: AbortSignal },
): Promise<string> {
  const base = (options.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  const body: Record<string, unknown> = {
    model: options.model,
    messages: messages.map(({ role, content }) => ({ role, content })),
    temperature: options.temperature ?? 0,
    [options.maxTokensField ?? "max_tokens"]: options.maxTokens ?? 1_024,
  };
  if (options.jsonMode !== false) body.response_format = { type: "json_object" };
  const headers: Record<string, string> = options.apiKey
    ? { authorization: `Bearer ${options.apiKey}` }
    : {};
  const answer = await postJson(
    "openai",
    `${base}/chat/completions`,
    headers,
    body,
    options,
    signal,
  );
  const checked = v.safeParse(Completion, answer);
  if (!checked.success) {
    throw new LlmError("openai answered without choices[0].message.content", {
      code: "invalid-response",
      provider: "openai",
    });
  }
  return checked.output.choices[0].message.content ?? "";
}
