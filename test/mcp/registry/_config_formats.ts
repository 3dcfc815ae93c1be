// Test helper of test/mcp/registry for the config formats: a refusal with its exact message and
// field.
import assert from "node:assert/strict";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";

/** `run` throws a PolicyError with exactly this message and field. */
export function refuses(run: () => unknown, message: string, field: string | undefined): void {
  assert.throws(run, (e) => {
    assert.ok(isMcpError(e, "PolicyError"), `not a PolicyError: ${e}`);
    assert.equal((e as PolicyError).message, message);
    assert.equal((e as PolicyError).field, field);
    return true;
  });
}
