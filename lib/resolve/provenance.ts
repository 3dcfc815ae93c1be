/**
 * Provenance: where a skill (or a catalog entry) came from, as every resolution, listing row and
 * catalog entry carries it. The tiers of the priority chain are `user`, `community`, `mcp:<server>`
 * (one per MCP server, in registration order) and `builtin`; the catalog adds `host` for the
 * host's own functions, and a custom source may use its own label. Only `mcp:` provenance is
 * remote: its content is fenced as untrusted in prompts. This module is the one place that
 * builds, parses and classifies the `mcp:` form.
 *
 * @module
 */

/** The prefix of a remote (MCP server) provenance label. */
const MCP_PREFIX = "mcp:";

/**
 * A provenance label: a tier of the priority chain, `host`, `mcp:<server>`, or a custom source's
 * own label (any other string).
 *
 * @example
 * ```ts
 * import type { Provenance } from "@skillmux/core";
 * const where: Provenance = "mcp:docs";
 * console.log(where);
 * ```
 */
export type Provenance =
  | "user"
  | "community"
  | "builtin"
  | "host"
  | `mcp:${string}`
  | (string & Record<never, never>);

/** A provenance label taken apart by {@linkcode parseProvenance}. */
export type ProvenanceParts =
  | {
    /** From an MCP server: untrusted content. */
    remote: true;
    /** The server's name, as registered. */
    server: string;
    /** The label as given. */
    label: string;
  }
  | {
    /** A local tier or a custom source. */
    remote: false;
    /** The label as given (`user`, `community`, `builtin`, `host`, or a custom source's). */
    label: string;
  };

/**
 * The provenance label of the MCP server named `server`: `mcp:<server>`.
 *
 * @example
 * ```ts
 * import { mcpProvenance } from "@skillmux/core";
 * console.log(mcpProvenance("docs")); // "mcp:docs"
 * ```
 */
export function mcpProvenance(server: string): Provenance {
  return `${MCP_PREFIX}${server}`;
}

/**
 * Whether content with this provenance came from an MCP server (`mcp:<server>`): the content
 * a prompt fences as untrusted and a listing marks as remote.
 *
 * @example
 * ```ts
 * import { isRemoteProvenance } from "@skillmux/core";
 * console.log(isRemoteProvenance("mcp:docs"), isRemoteProvenance("user")); // true false
 * ```
 */
export function isRemoteProvenance(source: string): boolean {
  return source.startsWith(MCP_PREFIX);
}

/**
 * Take a provenance label apart: the server of an `mcp:` label, or the local label.
 *
 * @example
 * ```ts
 * import { parseProvenance } from "@skillmux/core";
 * const where = parseProvenance("mcp:docs");
 * if (where.remote) console.log(where.server); // "docs"
 * ```
 */
export function parseProvenance(source: string): ProvenanceParts {
  return isRemoteProvenance(source)
    ? { remote: true, server: source.slice(MCP_PREFIX.length), label: source }
    : { remote: false, label: source };
}
