// Private: the modern (2026-07-28) session. Stateless: every request carries the protocol
// version, client capabilities and client info in `_meta` and, over HTTP, the same version in
// `MCP-Protocol-Version` plus `Mcp-Method` and `Mcp-Name`. An UnsupportedProtocolVersion error
// (-32022) picks a mutually supported version and retries; an input-required result (SEP-2322)
// is answered by the host's handlers and the request retried with a new id, `inputResponses`
// and `requestState` echoed byte for byte; a missing `resultType` means `complete`.

import { HttpError, ProtocolError, RpcError } from "../protocol/errors.ts";
import { encodeHeaderValue } from "../protocol/_encode.ts";
import {
  type CacheHint,
  cacheHintOf,
  MODERN_VERSION,
  type ProtocolSession,
  type SessionInfo,
} from "./_protocol.ts";
import type { McpTransport, TransportRequestOptions } from "../transport/interface.ts";
import type { ClientCapabilities } from "./client_handlers.ts";
import type { Implementation, JsonRpcRequest } from "../protocol/types.ts";

/** Error codes only modern servers send: they prove the era. */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([-32020, -32021, -32022]);

const MAX_INPUT_ROUNDS = 8;
const NAMED: Record<string, "name" | "uri"> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** Answers one input request (elicitation, sampling, roots) for the MRTR retry. */
export type InputAnswerer = (
  method: string,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal | undefined,
) => Promise<Record<string, unknown>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A modern session; `discover()` fills `info` (or a cached discovery does). */
export class ModernSession implements ProtocolSession {
  readonly era = "modern" as const;
  info!: SessionInfo;
  readonly #transport: McpTransport;
  readonly #server: string;
  readonly #meta: Record<string, unknown>;
  readonly #answer: InputAnswerer;
  readonly #hints = new Map<string, CacheHint>();
  #version = MODERN_VERSION;
  #nextId = 1;

  constructor(
    transport: McpTransport,
    server: string,
    clientInfo: Implementation,
    capabilities: ClientCapabilities,
    answer: InputAnswerer,
  ) {
    this.#transport = transport;
    this.#server = server;
    this.#answer = answer;
    this.#meta = {
      "io.modelcontextprotocol/clientCapabilities": capabilities,
      "io.modelcontextprotocol/clientInfo": clientInfo,
    };
    transport.setProtocolVersion(this.#version);
  }

  cacheHint(method: string): CacheHint | undefined {
    return this.#hints.get(method);
  }

  /** `server/discover`: versions, capabilities, identity and instructions. */
  async discover(options: TransportRequestOptions): Promise<SessionInfo> {
    const result = await this.request("server/discover", undefined, options);
    const versions = result.supportedVersions;
    if (!Array.isArray(versions) || !isObject(result.capabilities ?? {})) {
      throw new ProtocolError(`${this.#server}: invalid server/discover result`, {
        server: this.#server,
      });
    }
    const meta = isObject(result._meta) ? result._meta : {};
    const identity = meta["io.modelcontextprotocol/serverInfo"] ?? result.serverInfo;
    const serverInfo = isObject(identity) && typeof identity.name === "string"
      ? { ...identity, name: identity.name, version: String(identity.version ?? "") }
      : { name: this.#server, version: "" };
    this.info = {
      protocolVersion: this.#version,
      capabilities: (result.capabilities ?? {}) as Record<string, unknown>,
      serverInfo,
      ...(typeof result.instructions === "string" ? { instructions: result.instructions } : {}),
    };
    return this.info;
  }

  /** Adopt a discovery learnt earlier (no request). */
  adopt(info: SessionInfo): void {
    this.info = { ...info, protocolVersion: this.#version };
  }

  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: TransportRequestOptions,
  ): Promise<Record<string, unknown>> {
    let extra: Record<string, unknown> = {};
    for (let round = 0;; round++) {
      const result = await this.#send(method, { ...params, ...extra }, options, true);
      if (result.resultType !== "input_required") {
        const hint = cacheHintOf(result);
        if (hint && round === 0) this.#hints.set(method, hint);
        return result;
      }
      if (round === MAX_INPUT_ROUNDS) {
        throw new ProtocolError(
          `${this.#server}: ${method} still asked for input after ${MAX_INPUT_ROUNDS} rounds`,
          { server: this.#server },
        );
      }
      extra = await this.#inputs(result, options.signal);
    }
  }

  /** `inputResponses` for an input-required result, and its `requestState` untouched. */
  async #inputs(
    result: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const next: Record<string, unknown> = {};
    if (isObject(result.inputRequests)) {
      const entries = Object.entries(result.inputRequests);
      const answers = await Promise.all(entries.map(([, request]) => {
        if (!isObject(request) || typeof request.method !== "string") {
          throw new ProtocolError(`${this.#server}: invalid input request`, {
            server: this.#server,
          });
        }
        return this.#answer(request.method, request.params as Record<string, unknown>, signal);
      }));
      next.inputResponses = Object.fromEntries(entries.map(([key], i) => [key, answers[i]]));
    }
    if (typeof result.requestState === "string") next.requestState = result.requestState;
    return next;
  }

  async #send(
    method: string,
    params: Record<string, unknown>,
    options: TransportRequestOptions,
    renegotiate: boolean,
  ): Promise<Record<string, unknown>> {
    const meta = isObject(params._meta) ? params._meta : {};
    const message: JsonRpcRequest = {
      jsonrpc: "2.0",
      id: this.#nextId++,
      method,
      params: {
        ...params,
        _meta: { ...meta, ...this.#meta, "io.modelcontextprotocol/protocolVersion": this.#version },
      },
    };
    const headers: Record<string, string> = { ...options.headers, "Mcp-Method": method };
    const named = params[NAMED[method]];
    if (typeof named === "string") headers["Mcp-Name"] = encodeHeaderValue(named);
    let response;
    try {
      response = await this.#transport.request(message, { ...options, headers });
    } catch (error) {
      if (!(error instanceof HttpError) || error.rpc === undefined) throw error;
      response = { jsonrpc: "2.0" as const, id: message.id, error: error.rpc };
    }
    if (!("error" in response)) return response.result;
    const { code, message: text, data } = response.error;
    const supported = isObject(data) && Array.isArray(data.supported) ? data.supported : [];
    if (code === -32022 && renegotiate && supported.includes(MODERN_VERSION)) {
      this.#version = MODERN_VERSION;
      this.#transport.setProtocolVersion(this.#version);
      return await this.#send(method, params, options, false);
    }
    throw new RpcError(code, text, data, { server: this.#server });
  }
}
