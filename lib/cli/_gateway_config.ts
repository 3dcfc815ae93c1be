// Private: the `[gateway]` table of config.toml, which `serve --gateway` reads:
//
//   [gateway]
//   pinned = ["everything__echo", "memory__read_*"]   # listed directly, even with --discover
//
// A file that is not TOML, or a field of the wrong type, is an error naming the file and the field.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "smol-toml";
import { CliError } from "./_args.ts";

/** What `[gateway]` says. */
export interface GatewayConfig {
  /** Tool ids or globs listed directly. */
  pinned: string[];
}

/** `[gateway]` of `config.toml` in `configDir` (empty when the file or the table is absent). */
export async function readGatewayConfig(configDir: string): Promise<GatewayConfig> {
  const file = join(configDir, "config.toml");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return { pinned: [] };
  }
  let table: unknown;
  try {
    table = (parse(text) as { gateway?: unknown }).gateway;
  } catch (error) {
    throw new CliError(`${file} is not valid TOML: ${(error as Error).message}`, { cause: error });
  }
  if (table === undefined) return { pinned: [] };
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    throw new CliError(`${file}: [gateway] must be a table`);
  }
  const pinned = (table as { pinned?: unknown }).pinned;
  if (pinned === undefined) return { pinned: [] };
  if (!Array.isArray(pinned) || pinned.some((p) => typeof p !== "string")) {
    throw new CliError(
      `${file}: [gateway] pinned must be a list of tool ids, e.g. pinned = ["everything__echo"]`,
    );
  }
  return { pinned: pinned as string[] };
}
