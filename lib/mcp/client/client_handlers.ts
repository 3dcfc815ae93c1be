/**
 * What a client declares it can do for a server, and the host's handlers for
 * the server-to-client requests behind it: elicitation (form mode, SEP-1034
 * defaults applied on accept), sampling and roots. Under 2025 revisions these
 * arrive as JSON-RPC requests on the response or GET stream; under 2026-07-28
 * as `inputRequests` of an input-required result (SEP-2322). The handlers are
 * the same either way.
 *
 * @module
 */

/** Client capabilities as sent in `initialize` or in every request's `_meta`. */
export interface ClientCapabilities {
  /** Elicitation: `{}` (form mode), or `{ form: {}, url: {} }`. */
  elicitation?: Record<string, unknown>;
  /** Sampling: `{}`. */
  sampling?: Record<string, unknown>;
  /** Roots: `{ listChanged?: boolean }`. */
  roots?: { listChanged?: boolean; [key: string]: unknown };
  /** Extensions by identifier, e.g. `io.modelcontextprotocol/skills`. */
  extensions?: Record<string, Record<string, unknown>>;
  /** Other capabilities, passed on as given. */
  [key: string]: unknown;
}

/** A primitive field of an elicitation form (`requestedSchema.properties`). */
export type ElicitField = Record<string, unknown> & { type?: string; default?: unknown };

/** `elicitation/create` parameters. */
export interface ElicitRequestParams {
  /** `form` (default) or `url`. */
  mode?: string;
  /** What to ask the user. */
  message: string;
  /** Form mode: a flat object schema of primitive fields. */
  requestedSchema?: {
    type: "object";
    properties: Record<string, ElicitField>;
    required?: string[];
  };
  /** URL mode: where to send the user. */
  url?: string;
  /** Other parameters the server sent. */
  [key: string]: unknown;
}

/** The user's answer to an elicitation. */
export interface ElicitResult {
  /** `accept` (with `content`), `decline` or `cancel`. */
  action: "accept" | "decline" | "cancel";
  /** Form mode, `accept`: the values (missing ones are filled from the schema's defaults). */
  content?: Record<string, unknown>;
  /** Other fields, passed on as given. */
  [key: string]: unknown;
}

/** `sampling/createMessage` parameters (messages, `maxTokens`, preferences, …). */
export interface CreateMessageParams {
  /** The conversation to sample from. */
  messages: Array<{ role: "user" | "assistant"; content: unknown }>;
  /** The most tokens to generate. */
  maxTokens: number;
  /** Preferences and other parameters the server sent. */
  [key: string]: unknown;
}

/** A sampling answer. */
export interface CreateMessageResult {
  /** Always `assistant`. */
  role: "assistant";
  /** The generated content block. */
  content: unknown;
  /** The model that generated it. */
  model: string;
  /** Why generation stopped, e.g. `endTurn`. */
  stopReason?: string;
  /** Other fields, passed on as given. */
  [key: string]: unknown;
}

/** A root the client exposes. */
export interface Root {
  /** The root's URI, e.g. `file:///home/me/project`. */
  uri: string;
  /** A name for display. */
  name?: string;
  /** Other fields, passed on as given. */
  [key: string]: unknown;
}

/** What a handler learns about the request it answers. */
export interface ServerRequestContext {
  /** The configured server name (the host's label, never the server's self-reported name). */
  server: string;
  /** Aborted when the client closes or the originating call is cancelled. */
  signal: AbortSignal;
}

/**
 * Host handlers for server-to-client requests. Each one given also declares
 * its capability (`elicitation: {}`, `sampling: {}`, `roots: {}`) unless
 * `capabilities` says otherwise; a request without a handler gets -32601.
 *
 * @example Accept every elicitation with the form's defaults
 * ```ts
 * import { connect } from "@skillmux/core";
 * const client = await connect({ name: "forms", url: "http://127.0.0.1:3001/mcp" }, {
 *   handlers: { elicitation: () => ({ action: "accept", content: {} }) },
 * });
 * await client.close();
 * ```
 */
export interface ClientHandlers {
  /** Answer `elicitation/create`. On `accept`, omitted fields get the schema's `default`. */
  elicitation?: (
    params: ElicitRequestParams,
    context: ServerRequestContext,
  ) => ElicitResult | Promise<ElicitResult>;
  /** Answer `sampling/createMessage`. */
  sampling?: (
    params: CreateMessageParams,
    context: ServerRequestContext,
  ) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Answer `roots/list`. */
  roots?: (context: ServerRequestContext) => Root[] | Promise<Root[]>;
}
