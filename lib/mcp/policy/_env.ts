// Private: the environment `${VAR}` templating reads when no explicit map is given.

/**
 * The process environment on Deno and Node (feature-detected through
 * `globalThis.process.env`, no `node:` import), `{}` in browsers.
 */
export function defaultTemplateEnv(): Record<string, string | undefined> {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } })
    .process;
  return process?.env ?? {};
}
