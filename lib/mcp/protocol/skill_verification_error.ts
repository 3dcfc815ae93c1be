/**
 * The MCP error of a skill served over MCP that fails its verification (SEP-2640), with the
 * reason it was not used.
 *
 * @module
 */

import { McpError, type McpErrorOptions } from "./mcp_error.ts";

/** Why a skill served over MCP was not used (SEP-2640 verification). */
export type SkillVerificationReason =
  | "unlisted"
  | "size"
  | "digest"
  | "frontmatter"
  | "dynamic"
  | "limits"
  | "invalid";

/**
 * A skill file read over MCP did not match its `skills/list` entry (size, digest, front matter),
 * was not listed in it, or the entry itself is unusable. The content was not used.
 *
 * @example
 * ```ts
 * import { SkillVerificationError } from "@skillmux/core/mcp";
 * const error = new SkillVerificationError("digest", "skill://bwa/SKILL.md", "digest mismatch");
 * console.log(error.reason, error.uri); // "digest" "skill://bwa/SKILL.md"
 * ```
 */
export class SkillVerificationError extends McpError {
  /** Always `skill-verification`. */
  override readonly code: "skill-verification" = "skill-verification";
  /** What failed. */
  readonly reason: SkillVerificationReason;
  /** The file (or skill) concerned. */
  readonly uri: string;
  /** Build the error. */
  constructor(
    reason: SkillVerificationReason,
    uri: string,
    message: string,
    options: McpErrorOptions = {},
  ) {
    super(`${options.server ? `${options.server}: ` : ""}${message}`, options);
    this.name = "SkillVerificationError";
    this.reason = reason;
    this.uri = uri;
  }
}
