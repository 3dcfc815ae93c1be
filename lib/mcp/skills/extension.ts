/**
 * The skills extension (SEP-2640) itself: its identifier, whether a server declares it, and the
 * limits every host must accept.
 *
 * @module
 */

import type { McpClient } from "../client/client_types.ts";

/**
 * The extension identifier servers declare under `capabilities.extensions`.
 *
 * @example
 * ```ts
 * import { SKILLS_EXTENSION } from "@skillmux/core/mcp";
 * console.log(SKILLS_EXTENSION); // "io.modelcontextprotocol/skills"
 * ```
 */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/**
 * Whether the server declares the skills extension (only then may `skills/*` be called).
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { offersSkills } from "@skillmux/core/mcp";
 * const client = await connect({ name: "team", url: "http://127.0.0.1:3737/mcp" });
 * console.log(offersSkills(client));
 * await client.close();
 * ```
 */
export function offersSkills(client: Pick<McpClient, "capabilities">): boolean {
  const extensions = client.capabilities.extensions as Record<string, unknown> | undefined;
  return typeof extensions === "object" && extensions !== null && SKILLS_EXTENSION in extensions;
}

/**
 * The most files per skill every host must accept (SEP-2640); larger entries are refused.
 *
 * @example
 * ```ts
 * import { MAX_SKILL_FILES } from "@skillmux/core/mcp";
 * console.log(MAX_SKILL_FILES); // 512
 * ```
 */
export const MAX_SKILL_FILES = 512;
/**
 * The most bytes per skill (sum of sizes) every host must accept (SEP-2640): 16 MiB.
 *
 * @example
 * ```ts
 * import { MAX_SKILL_BYTES } from "@skillmux/core/mcp";
 * console.log(MAX_SKILL_BYTES); // 16777216
 * ```
 */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
