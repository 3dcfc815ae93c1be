// What servers ask of the person: elicitation (a form from `requestedSchema`, or a URL to open),
// sampling (the messages shown, answered by hand) and roots (the list set in Settings). Each
// request waits in `asks.pending` until the person answers it in the dialog (Asks.svelte), or
// until the server's request is cancelled.
import type {
  ClientCapabilities,
  ClientHandlers,
  CreateMessageParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Root,
} from "@skillmux/core/mcp";

/** One request from a server, waiting for the person. */
export type Ask =
  & { id: number; server: string }
  & (
    | { kind: "elicitation"; params: ElicitRequestParams; answer(result: ElicitResult): void }
    | {
      kind: "sampling";
      params: CreateMessageParams;
      answer(result: CreateMessageResult | Error): void;
    }
  );

export const asks = $state({ pending: [] as Ask[] });

/** Roots the person set (Settings), one URI a line: read when a server asks. */
let rootsText = () => "";

/** Where the roots come from (the settings, once loaded). */
export function rootsFrom(read: () => string): void {
  rootsText = read;
}

let nextId = 1;

function wait<T>(
  server: string,
  signal: AbortSignal,
  make: (id: number, settle: (value: T | Error) => void) => Ask,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const id = nextId++;
    const done = () => (asks.pending = asks.pending.filter((a) => a.id !== id));
    const onAbort = () => {
      done();
      reject(signal.reason ?? new Error("The server withdrew its request"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    asks.pending = [
      ...asks.pending,
      make(id, (value) => {
        signal.removeEventListener("abort", onAbort);
        done();
        if (value instanceof Error) reject(value);
        else resolve(value);
      }),
    ];
  });
}

/** The page's handlers for server requests. */
export const handlers: ClientHandlers = {
  elicitation: (params, { server, signal }) =>
    wait<ElicitResult>(server, signal, (id, settle) => ({
      id,
      server,
      kind: "elicitation",
      params,
      answer: (result) => settle(result),
    })),
  sampling: (params, { server, signal }) =>
    wait<CreateMessageResult>(server, signal, (id, settle) => ({
      id,
      server,
      kind: "sampling",
      params,
      answer: settle,
    })),
  roots: (): Root[] =>
    rootsText().split("\n").map((line) => line.trim()).filter(Boolean).map((uri) => ({
      uri,
      name: uri.replace(/\/+$/, "").split("/").pop() || uri,
    })),
};

/** What the page declares: form and URL elicitation, sampling, roots. */
export const capabilities: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: { listChanged: false },
};
