/**
 * Types of the catalog's entries: skills, MCP tools and host functions as one kind of row, host
 * functions as an application registers them, and where a tool runs.
 *
 * @module
 */

import type { McpClient } from "../../mcp/client/client_types.ts";
import type { McpServerConfig, Tool } from "../../mcp/protocol/types.ts";
import type { RegisteredServer } from "../../mcp/registry/records.ts";

/** The three kinds of entry. */
export type EntryKind = "skill" | "tool" | "function";

/** A JSON Schema object (tool input schemas). */
export type JsonSchema = Record<string, unknown>;

/** Where an entry stands with the approvals (see {@linkcode ApprovalOptions}). */
export type ApprovalState = "approved" | "pending" | "changed";

/** One skill, MCP tool or host function, as the catalog lists it. */
export interface CatalogEntry {
  /** Unique in the catalog and a valid tool name for OpenAI and Anthropic (`^[a-zA-Z0-9_-]{1,64}$`). */
  id: string;
  /** Skill, MCP tool or host function. */
  kind: EntryKind;
  /** The skill name, the tool's name on its server, or the function name. */
  name: string;
  /** A display title, when the source gave one (cleaned). */
  title?: string;
  /** One line: what it does (cleaned, capped). */
  description: string;
  /** Provenance: `user`, `community`, `builtin`, `mcp:<server>` or `host`. */
  source: string;
  /** MCP tools: the server's registered name. */
  server?: string;
  /** Search tags (skills; host functions may set them). */
  tags: string[];
  /** More words for keyword ranking: a skill's concepts and example tasks, a tool's parameters. */
  keywords: string[];
  /** MCP tools: a server must be connected before the tool can run. */
  needsConnection: boolean;
  /** Whether the text came from a remote server (untrusted: fenced in prompts). */
  remote: boolean;
  /** `sha256:<hex>` of the full definition as the source gave it (before cleaning). */
  digest: string;
  /** Tools and functions: the JSON Schema of the arguments. */
  inputSchema?: JsonSchema;
  /** Skills: where in the source (file path, key or URI). */
  location?: string;
  /**
   * Skills whose text enters prompts fenced as untrusted data and checked for text that addresses
   * the model: remote (`mcp:*`) skills, and community skills (installed from a registry, which
   * controls both the file and its digest) unless the catalog trusts them (`trustCommunity`).
   */
  fenced?: boolean;
  /** Remote skills: the `allowed-tools` they ask for (never granted by the catalog). */
  requestedTools?: string[];
  /**
   * Remote entries: why their text (before cleaning) seems to address the model, if it does. For
   * tools each reason says where: `its description …` or `its input schema at <path> …` (every
   * string of the schema, at any depth).
   */
  flags?: string[];
  /** Approved, or held out of prompts until approved (`pending` first sight, `changed` since approval). */
  approval: ApprovalState;
  /**
   * MCP tools: listed from a preview (an MCP registry's or a server card's word for what the
   * server has, see {@linkcode CreateCatalogOptions.previews}) because the server was never
   * connected. Always held until approved, whatever the policy; the server connects only when
   * the tool is selected or called, and its real definition replaces the preview from then on.
   */
  preview?: boolean;
}

/** The tools a server says it has before it is connected (an MCP registry's preview). */
export type ToolPreviews = (
  server: RegisteredServer,
) => Promise<readonly Tool[] | undefined> | readonly Tool[] | undefined;

/** What a host function's handler receives besides its arguments. */
export interface HostFunctionContext {
  /** Aborted when the caller gives up. */
  signal: AbortSignal;
}

/**
 * A function of the embedding application offered to the model as a tool.
 *
 * @example
 * ```ts
 * import type { HostFunction } from "@skillmux/core";
 * const lookup: HostFunction = {
 *   name: "lookup_sample",
 *   description: "Find a sample's FASTQ files by sample id",
 *   inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
 *   handler: ({ id }) => ({ files: [`${id}_R1.fastq.gz`, `${id}_R2.fastq.gz`] }),
 * };
 * console.log(lookup.name);
 * ```
 */
export interface HostFunction {
  /** The tool name: 1–64 letters, digits, `_` and `-`. */
  name: string;
  /** What it does and when to use it. */
  description: string;
  /** JSON Schema of the arguments (default: an object with no properties). */
  inputSchema?: JsonSchema;
  /** Extra search tags. */
  tags?: string[];
  /** Runs the function; the value is returned to the model (strings as is, other values as JSON). */
  handler(args: Record<string, unknown>, context: HostFunctionContext): unknown;
}

/** Where an MCP tool of the catalog runs. */
export interface ToolTarget {
  /** The tool as its server listed it. */
  tool: Tool;
  /** The server's configuration (registry servers). */
  server?: McpServerConfig;
  /** An open client (servers given to the catalog already connected). */
  client?: McpClient;
}
