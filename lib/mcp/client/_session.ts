// Private: the legacy (2025-11-25 and earlier) session: the initialize handshake, version
// negotiation, and one re-initialise after a lost session (replaying only idempotent requests).
// `notifications/initialized` is sent without waiting for its 202, so the next request leaves at
// once (one round trip saved on every connect).

import {
  isMcpError,
  ProtocolError,
  RpcError,
  SessionExpiredError,
  UnsupportedProtocolVersionError,
} from "../protocol/errors.ts";
import { checkResult } from "./_results.ts";
import { taskCapability } from "./_client_tasks.ts";
import type { McpTransport, TransportRequestOptions } from "../transport/interface.ts";
import type { Implementation, JsonRpcRequest } from "../protocol/types.ts";
import type { ClientCapabilities } from "./client_handlers.ts";
import {
  type CacheHint,
  LEGACY_VERSIONS,
  type ProtocolSession,
  type SessionInfo,
} from "./_protocol.ts";

/** What the server said in `initialize`. */
export type InitializeResult = SessionInfo;

/** A session over one transport: ids, the handshake, and re-initialising once when it is lost. */
export class Session implements ProtocolSession {
  readonly era = "legacy" as const;
  readonly #transport: McpTransport;
  readonly #server: string;
  readonly #clientInfo: Implementation;
  readonly #version: string;
  readonly #capabilities: ClientCapabilities;
  readonly #log: (line: string) => void;
  #nextId = 1;
  #reinit: Promise<InitializeResult> | undefined;
  /** The latest initialize result. */
  info!: InitializeResult;

  constructor(
    transport: McpTransport,
    server: string,
    clientInfo: Implementation,
    version: string,
    capabilities: ClientCapabilities = {},
    log: (line: string) => void = () => {},
  ) {
    this.#transport = transport;
    this.#server = server;
    this.#clientInfo = clientInfo;
    this.#version = LEGACY_VERSIONS.includes(version) ? version : LEGACY_VERSIONS[0];
    this.#capabilities = capabilities;
    this.#log = log;
  }

  /** Legacy servers send no caching hints. */
  cacheHint(_method: string): CacheHint | undefined {
    return undefined;
  }

  /** Run `initialize` and `notifications/initialized`; negotiate the version. */
  async initialize(options: TransportRequestOptions): Promise<InitializeResult> {
    // 2025-11-25: the client takes part in tasks (task-augmented tools/call, tasks/get, …).
    const capabilities = this.#version === "2025-11-25" && this.#capabilities.tasks === undefined
      ? { ...this.#capabilities, tasks: taskCapability(this.#capabilities) }
      : this.#capabilities;
    const result = await this.#send("initialize", {
      protocolVersion: this.#version,
      capabilities,
      clientInfo: this.#clientInfo,
    }, { ...options, idempotent: true });
    const problem = checkResult("initialize", result);
    if (problem !== undefined) {
      throw new ProtocolError(`${this.#server}: invalid initialize result: ${problem}`, {
        server: this.#server,
      });
    }
    const info = result as unknown as SessionInfo;
    const version = info.protocolVersion;
    if (!LEGACY_VERSIONS.includes(version)) {
      throw new UnsupportedProtocolVersionError(version, { server: this.#server });
    }
    this.#transport.setProtocolVersion(version);
    this.#transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" }, options)
      .catch((error) =>
        this.#log(`${this.#server}: notifications/initialized failed (${(error as Error).name})`)
      );
    this.info = info;
    return info;
  }

  /**
   * Send a request. When the server lost the session, initialise again (once,
   * shared by concurrent callers) and replay the request if it is idempotent;
   * otherwise surface `SessionExpiredError`.
   */
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: TransportRequestOptions,
  ): Promise<Record<string, unknown>> {
    try {
      return await this.#send(method, params, options);
    } catch (error) {
      if (!isMcpError(error, "SessionExpiredError")) throw error;
      await this.#reinitialize(options);
      if (!options.idempotent) {
        throw new SessionExpiredError(
          `${this.#server}: the session expired during ${method}; the session was renewed but ${method} is not replayed`,
          { server: this.#server, cause: error },
        );
      }
      return await this.#send(method, params, options);
    }
  }

  #reinitialize(options: TransportRequestOptions): Promise<InitializeResult> {
    this.#reinit ??= (async () => {
      this.#transport.resetSession();
      try {
        return await this.initialize(options);
      } finally {
        this.#reinit = undefined;
      }
    })();
    return this.#reinit;
  }

  async #send(
    method: string,
    params: Record<string, unknown> | undefined,
    options: TransportRequestOptions,
  ): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id, method };
    // Progress notifications name the request by its progress token: use the request id.
    if (options.onProgress) {
      const meta = (params?._meta ?? {}) as Record<string, unknown>;
      message.params = { ...params, _meta: { ...meta, progressToken: id } };
    } else if (params !== undefined) message.params = params;
    const response = await this.#transport.request(message, options);
    if ("error" in response) {
      const { code, message: text, data } = response.error;
      throw new RpcError(code, text, data, { server: this.#server });
    }
    return response.result;
  }
}
