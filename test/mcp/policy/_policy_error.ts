// Test helper of test/mcp/policy: the PolicyError a policy check throws, for tests that assert
// its exact message and field.
import assert from "node:assert/strict";
import { isMcpError, type PolicyError } from "../../../lib/mcp/protocol/errors.ts";

/** The PolicyError `run` throws (fails when it returns or throws something else). */
export function policyError(run: () => unknown): PolicyError {
  try {
    run();
  } catch (error) {
    assert.ok(isMcpError(error, "PolicyError"), String(error));
    return error as PolicyError;
  }
  assert.fail("no PolicyError");
}
