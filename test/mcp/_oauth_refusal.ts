// The OAuthError a promise rejects with, as [code, message, server], for tests that compare all
// three at once; anything else (a resolve, another error) fails the calling test.

import assert from "node:assert/strict";

/** The OAuthError `promise` rejects with, as [code, message, server]. */
export async function refused(
  promise: Promise<unknown>,
): Promise<[string, string, string | undefined]> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.equal(error?.name, "OAuthError", String(error));
  return [error.code, error.message, error.server];
}
