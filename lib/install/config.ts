/**
 * The default skill registry: `SKILLMUX_REGISTRY`, else `[skills] registry` in `config.toml`.
 *
 * @module
 */

import { parse } from "smol-toml";
import { nodeBuiltins } from "../_node.ts";
import { InstallError } from "./errors.ts";

/**
 * The registry to use when none is given: the `SKILLMUX_REGISTRY` environment
 * variable, else `registry` in the `[skills]` table of `config.toml` in
 * `configDir`, else `undefined`.
 *
 * ```toml
 * [skills]
 * registry = "https://skills.example.org"
 * ```
 *
 * @param configDir The folder of `config.toml`.
 * @param env Environment variables to read (default: the process environment).
 * @returns The registry URL as written, or `undefined`.
 * @throws {InstallError} `config` when `config.toml` is not valid TOML or `registry` is not a string.
 *
 * @example
 * ```ts
 * import { defaultRegistry } from "@skillmux/core/install";
 * console.log(await defaultRegistry("/tmp/no-such-config", {})); // undefined
 * console.log(await defaultRegistry("/tmp", { SKILLMUX_REGISTRY: "https://r.example" })); // "https://r.example"
 * ```
 */
export async function defaultRegistry(
  configDir: string,
  env?: Record<string, string | undefined>,
): Promise<string | undefined> {
  const { fs, path, env: processEnv } = nodeBuiltins("defaultRegistry");
  const fromEnv = (env ?? processEnv).SKILLMUX_REGISTRY;
  if (fromEnv) return fromEnv;
  const file = path.join(configDir, "config.toml");
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    return undefined;
  }
  let registry: unknown;
  try {
    registry = (parse(text) as { skills?: { registry?: unknown } }).skills?.registry;
  } catch (error) {
    throw new InstallError("config", `${file} is not valid TOML: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (registry === undefined) return undefined;
  if (typeof registry !== "string") {
    throw new InstallError("config", `${file}: [skills] registry must be a URL string`);
  }
  return registry;
}
