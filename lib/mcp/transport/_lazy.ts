// Private: a transport whose implementation loads with its first message, so that a page which
// never talks to a server of that kind never downloads its code. Until then it only remembers
// what it is told (handlers, protocol version, close) and hands it over once loaded; afterwards
// every call goes straight through.

import type { PreparedServer } from "../policy/prepare.ts";
import type { McpTransport, ServerRequestHandler, TransportRequestOptions } from "./interface.ts";
import type {
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  TransportKind,
} from "../protocol/types.ts";

/** The server's URL; a server without one cannot have an HTTP transport. */
export function httpUrlOf(server: PreparedServer): URL {
  if (server.kind !== "http" || server.url === undefined) {
    throw new TypeError(`Server "${server.name}" has no url: HTTP transports need one`);
  }
  return server.url;
}

/** Stands in for the transport `load` builds, loading it on the first request. */
export class LazyTransport implements McpTransport {
  readonly kind: TransportKind;
  readonly listen?: McpTransport["listen"];
  readonly #load: () => Promise<McpTransport>;
  #loading: Promise<McpTransport> | undefined;
  #real: McpTransport | undefined;
  #onNotification: McpTransport["onNotification"];
  #onRequest: ServerRequestHandler | undefined;
  #version: string | undefined;
  #closed = false;

  /** `listens`: the real transport has `listen` (Streamable HTTP). */
  constructor(kind: TransportKind, load: () => Promise<McpTransport>, listens: boolean) {
    this.kind = kind;
    this.#load = load;
    if (listens) {
      this.listen = async (signal, onOpen) => (await this.#get()).listen!(signal, onOpen);
    }
  }

  get sessionId(): string | undefined {
    return this.#real?.sessionId;
  }

  get onNotification(): McpTransport["onNotification"] {
    return this.#real ? this.#real.onNotification : this.#onNotification;
  }
  set onNotification(handler: McpTransport["onNotification"]) {
    if (this.#real) this.#real.onNotification = handler;
    else this.#onNotification = handler;
  }

  get onRequest(): ServerRequestHandler | undefined {
    return this.#real ? this.#real.onRequest : this.#onRequest;
  }
  set onRequest(handler: ServerRequestHandler | undefined) {
    if (this.#real) this.#real.onRequest = handler;
    else this.#onRequest = handler;
  }

  async request(
    message: JsonRpcRequest,
    options?: TransportRequestOptions,
  ): Promise<JsonRpcResponse> {
    return (this.#real ?? await this.#get()).request(message, options);
  }

  async notify(message: JsonRpcNotification, options?: TransportRequestOptions): Promise<void> {
    return (this.#real ?? await this.#get()).notify(message, options);
  }

  setProtocolVersion(version: string): void {
    if (this.#real) this.#real.setProtocolVersion(version);
    else this.#version = version;
  }

  resetSession(): void {
    if (this.#real) this.#real.resetSession();
    else this.#version = undefined;
  }

  close(): Promise<void> {
    this.#closed = true;
    // Not loaded: there is no session to end; a later call loads it closed and fails as closed.
    return this.#loading?.then((real) => real.close(), () => {}) ?? Promise.resolve();
  }

  #get(): Promise<McpTransport> {
    this.#loading ??= this.#load().then((real) => {
      real.onNotification = this.#onNotification;
      real.onRequest = this.#onRequest;
      if (this.#version !== undefined) real.setProtocolVersion(this.#version);
      this.#real = real;
      if (this.#closed) real.close().catch(() => {});
      return real;
    }, (error) => {
      this.#loading = undefined; // a chunk that failed to download may load on the next try
      throw error;
    });
    return this.#loading;
  }
}
