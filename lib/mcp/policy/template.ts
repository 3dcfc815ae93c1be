/**
 * `${VAR}` templating for secrets in server configurations (header values and
 * the API key), so a stored configuration can name an environment variable
 * instead of holding the secret itself.
 *
 * @module
 */

import { policyError, quote } from "./_error.ts";

const NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/**
 * Expand `${VAR}` and `${VAR:-default}` in `value` from `env`.
 *
 * - `${VAR}`: the value of `VAR`; an unset variable throws a `PolicyError`
 *   naming `field` and `VAR` (an empty one expands to `""`).
 * - `${VAR:-default}`: the value of `VAR`, or `default` when `VAR` is unset or
 *   empty (shell semantics). The default is literal text up to the first `}`.
 * - `$${` is a literal `${`. A `$` not followed by `{` is kept as is (`$VAR`
 *   is not expanded).
 *
 * Expansion is single-pass: text that comes from a variable is never expanded
 * again. Variable names match `[A-Za-z_][A-Za-z0-9_]*`. Error messages name the
 * field and the variable, never a value.
 *
 * @param value The text to expand.
 * @param env The variables.
 * @param field The configuration field, for errors (e.g. `headers.X-Api-Key`).
 * @param server The server name, for errors.
 *
 * @example
 * ```ts
 * import { expandTemplate } from "@skillmux/core/policy";
 * const env = { TOKEN: "sk-123" };
 * console.log(expandTemplate("Token ${TOKEN}", env, "headers.X-Token")); // "Token sk-123"
 * console.log(expandTemplate("${REGION:-eu}", env, "headers.X-Region")); // "eu"
 * console.log(expandTemplate("$${TOKEN}", env, "headers.X-Literal")); // "${TOKEN}"
 * ```
 */
export function expandTemplate(
  value: string,
  env: Record<string, string | undefined>,
  field: string,
  server?: string,
): string {
  let out = "";
  let i = 0;
  while (i < value.length) {
    const at = value.indexOf("$", i);
    if (at < 0) {
      out += value.slice(i);
      break;
    }
    out += value.slice(i, at);
    if (value.startsWith("$${", at)) {
      out += "${";
      i = at + 3;
      continue;
    }
    if (value[at + 1] !== "{") {
      out += "$";
      i = at + 1;
      continue;
    }
    const end = value.indexOf("}", at + 2);
    if (end < 0) {
      throw policyError(
        `${field} has an unterminated "\${" at character ${at + 1}: ` +
          `close it with "}", or write "$\${" for a literal "\${"`,
        field,
        server,
      );
    }
    const match = NAME.exec(value.slice(at + 2, end));
    if (!match) {
      throw policyError(
        `${field} has a malformed placeholder at character ${at + 1}: ` +
          `use \${NAME} or \${NAME:-default} (NAME is letters, digits and _), or "$\${" for a literal "\${"`,
        field,
        server,
      );
    }
    const [, name, fallback] = match;
    const current = readVariable(env, name, field, server);
    if (current !== undefined && (fallback === undefined || current !== "")) out += current;
    else if (fallback !== undefined) out += fallback;
    else {
      throw policyError(
        `${field} uses \${${name}}, but the environment variable ${quote(name)} is not set: ` +
          `set it, or give a default with \${${name}:-default}`,
        field,
        server,
      );
    }
    i = end + 1;
  }
  return out;
}

function readVariable(
  env: Record<string, string | undefined>,
  name: string,
  field: string,
  server?: string,
): string | undefined {
  try {
    const value = env[name];
    return typeof value === "string" ? value : undefined;
  } catch (error) {
    // Deno without --allow-env throws when the environment is read.
    throw policyError(
      `${field} uses \${${name}}, but the environment could not be read ` +
        `(on Deno, grant --allow-env): pass the variables explicitly with the env option`,
      field,
      server,
      error,
    );
  }
}
