// Private: build a PolicyError whose message starts with the server it concerns.

import { PolicyError } from "../protocol/errors.ts";

/** A {@linkcode PolicyError} for `field`, prefixed with `Server "<name>": ` when `server` is known. */
export function policyError(
  message: string,
  field: string,
  server?: string,
  cause?: unknown,
): PolicyError {
  const prefix = server === undefined ? "" : `Server ${JSON.stringify(server)}: `;
  return new PolicyError(`${prefix}${message}`, { field, server, cause });
}

/** Show user-supplied text (a header name, a variable name) safely inside a message. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}
