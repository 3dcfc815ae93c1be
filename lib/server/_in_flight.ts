// Private: the JSON-RPC ids of one session's requests in flight. The SDK's transport routes each
// answer (and the progress that names the request) to the HTTP stream of the request with that
// id, so a second request reusing an id still in flight would take the first one's answer and
// progress, and leave the first stream hanging. JSON-RPC requires ids unique among a session's
// requests in flight: such a request is refused (400, -32600) before it reaches the transport.
// Other sessions' ids are theirs: every session has its own transport and id space.

import type { ServerResponse } from "node:http";
import { rpcError } from "./_http.ts";

/** One session's request ids in flight. */
export class InFlight {
  readonly #ids = new Set<string>();

  /**
   * Claim the ids of the requests in `body` (one message or a batch) until `res` closes; when
   * one is already in flight, answer `res` with the refusal and resolve `false`.
   */
  admit(body: unknown, res: ServerResponse, headers: Record<string, string>): boolean {
    const ids = (Array.isArray(body) ? body : [body]).flatMap((message) => {
      const m = message as { id?: unknown; method?: unknown } | null;
      return typeof m?.method === "string" && (typeof m.id === "string" || typeof m.id === "number")
        ? [JSON.stringify(m.id)]
        : [];
    });
    const taken = ids.find((id) => this.#ids.has(id));
    if (taken !== undefined || new Set(ids).size !== ids.length) {
      rpcError(
        res,
        400,
        `Invalid Request: id ${
          (taken ?? "of a batch entry").slice(0, 80)
        } is already used by a request in flight in this session; give each request its own id`,
        headers,
        -32600,
      );
      return false;
    }
    for (const id of ids) this.#ids.add(id);
    res.on("close", () => ids.forEach((id) => this.#ids.delete(id)));
    return true;
  }
}
