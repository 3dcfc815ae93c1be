// Private: the Anthropic Messages adapter (loaded on first use).

import * as v from "valibot";
import { postJson } from "./_llm_http.ts";
import { LlmError } from "./llm_error.ts";
import type { AnthropicModelOptions, ChatMessage } from "../model/select_types.ts";

const Message = v.looseObject({
  content: v.array(v.looseObject({ type: v.string(), text: v.optional(v.string()) })),
});

/** One Messages call; resolves to its text blocks joined. */
export async function chat(
  options: AnthropicModelOptions,
  messages: ChatMessage[],
  { signal }: { signal: AbortSignal },
): Promise<string> {
  const base = (options.baseUrl ?? "https://api.anthropic.com").replace(/\/+$/, "");
  const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
  const body: Record<string, unknown> = {
    model: options.model,
    max_tokens: options.maxTokens ?? 1_024,
    temperature: options.temperature ?? 0,
    messages: messages.filter((m) => m.role !== "system").map(({ role, content }) => ({
      role,
      content,
    })),
  };
  if (system !== "") body.system = system;
  const headers: Record<string, string> = {
    "anthropic-version": options.version ?? "2023-06-01",
    ...(options.apiKey ? { "x-api-key": options.apiKey } : {}),
  };
  const answer = await postJson("anthropic", `${base}/v1/messages`, headers, body, options, signal);
  const checked = v.safeParse(Message, answer);
  if (!checked.success) {
    throw new LlmError("anthropic answered without a content array", {
      code: "invalid-response",
      provider: "anthropic",
    });
  }
  return checked.output.content.filter((b) => b.type === "text").map((b) => b.text ?? "").join("");
}
