// Private: one JSON POST to an LLM API on ky, shared by the OpenAI and Anthropic adapters.

import ky, { HTTPError, TimeoutError } from "ky";
import { LlmError } from "./llm_error.ts";
import { redact as redactAll } from "../../mcp/policy/redact.ts";
import type { LlmHttpOptions } from "../model/select_types.ts";

/** Statuses worth another attempt (Anthropic uses 529 for "overloaded"). */
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504, 529];

/** Replace the key wherever a server echoed it, in every encoding `redact` knows. */
function redact(text: string, secret: string | undefined): string {
  return redactAll(text, secret ? [secret] : []);
}

/** The body of `response`, refusing more than `max` bytes (checked while reading). */
async function readCapped(response: Response, max: number, provider: string): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > max) {
    await response.body?.cancel().catch(() => {});
    throw new LlmError(`${provider}: the answer is ${declared} bytes, over the ${max} read`, {
      code: "too-large",
      provider,
      status: response.status,
    });
  }
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new LlmError(`${provider}: the answer is over the ${max} bytes read`, {
        code: "too-large",
        provider,
        status: response.status,
      });
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) all.set(chunk, at), at += chunk.byteLength;
  return new TextDecoder().decode(all);
}

/** The provider's own error message from an error body, if it has one. */
function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const inner = typeof body.error === "string" ? body.error : body.error?.message ?? body.message;
    if (typeof inner === "string") return inner;
  } catch { /* not JSON */ }
  return text;
}

/** POST `body` as JSON to `url`; resolves to the parsed JSON answer. */
export async function postJson(
  provider: string,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: LlmHttpOptions,
  signal: AbortSignal,
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const max = options.maxResponseBytes ?? 4 * 1024 * 1024;
  let response: Response;
  try {
    response = await ky.post(url, {
      json: body,
      headers: { ...options.headers, ...headers },
      signal,
      timeout: timeoutMs,
      fetch: options.fetch,
      retry: {
        limit: options.retries ?? 2,
        methods: ["post"],
        statusCodes: RETRY_STATUSES,
        afterStatusCodes: [413, 429, 503, 529],
        maxRetryAfter: 60_000,
        backoffLimit: 10_000,
      },
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof HTTPError) {
      const text = await readCapped(error.response, 64 * 1024, provider).catch(() => "");
      const detail = redact(providerMessage(text), options.apiKey).replace(/\s+/g, " ").slice(
        0,
        300,
      );
      throw new LlmError(
        `${provider} answered HTTP ${error.response.status}${detail ? `: ${detail}` : ""}`,
        { code: "http", provider, status: error.response.status },
      );
    }
    if (error instanceof TimeoutError) {
      throw new LlmError(`${provider} did not answer within ${timeoutMs} ms`, {
        code: "timeout",
        provider,
      });
    }
    const why = redact(error instanceof Error ? error.message : String(error), options.apiKey);
    throw new LlmError(`${provider} cannot be reached at ${new URL(url).origin}: ${why}`, {
      code: "network",
      provider,
    });
  }
  const text = await readCapped(response, max, provider);
  try {
    return JSON.parse(text);
  } catch {
    throw new LlmError(`${provider} answered with something that is not JSON`, {
      code: "invalid-response",
      provider,
      status: response.status,
    });
  }
}
