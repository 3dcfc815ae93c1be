// Fixtures of the LLM adapter tests (llm.test.ts, llm_http.test.ts): the one-message
// conversation they send, and a check that a call is refused with an LlmError of an exact message.
import assert from "node:assert/strict";
import { isLlmError, type LlmError } from "../../lib/catalog/llm/llm.ts";

/** A conversation of one user message. */
export const PICK = [{ role: "user" as const, content: "Pick a skill." }];

/** Rejects with an LlmError whose message is exactly `message`; resolves to that error. */
export async function refusal(promise: Promise<unknown>, message: string): Promise<LlmError> {
  let caught: unknown;
  await promise.catch((error) => (caught = error));
  assert.ok(isLlmError(caught), `an LlmError, not ${caught}`);
  assert.equal(caught.message, message);
  return caught;
}
