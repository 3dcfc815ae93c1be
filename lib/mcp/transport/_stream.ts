// Private: read HTTP bodies chunk by chunk with a byte cap, a stall timer and
// a cancellation signal. Nothing here buffers more than the cap: past it the
// reader is cancelled (the server sees the connection close) and the caller
// gets `ResponseTooLargeError`.

import { createParser, type EventSourceMessage } from "eventsource-parser";
import { raceSignal } from "../../_abort.ts";
import { NetworkError, ResponseTooLargeError, StreamEndedError } from "../errors.ts";

/** Limits shared by every body read. */
export interface ReadLimits {
  /** The server name, for error messages. */
  server: string;
  /** The byte cap. */
  maxBytes: number;
  /** Aborts the read; the read then rejects with `signal.reason`. */
  signal: AbortSignal;
  /** No bytes for this long → `StreamEndedError`. */
  stallMs?: number;
}

type Reader = ReadableStreamDefaultReader<Uint8Array>;

function release(reader: Reader): void {
  reader.cancel().catch(() => {});
}

async function readChunk(
  reader: Reader,
  limits: ReadLimits,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const { signal, stallMs, server } = limits;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reads: Array<Promise<ReadableStreamReadResult<Uint8Array>>> = [reader.read()];
  if (stallMs !== undefined && Number.isFinite(stallMs)) {
    reads.push(
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new StreamEndedError(`${server}: the stream stalled (no data for ${stallMs} ms)`, {
                server,
              }),
            ),
          stallMs,
        );
      }),
    );
  }
  try {
    return await raceSignal(Promise.race(reads), signal);
  } catch (error) {
    if (signal.aborted || error instanceof StreamEndedError) throw error;
    throw new NetworkError(`${server}: the connection broke while reading the response`, {
      server,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

/** Read a whole body, refusing it past `maxBytes` without holding more than that. */
export async function readBody(
  body: ReadableStream<Uint8Array> | null,
  limits: ReadLimits,
): Promise<string> {
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { done, value } = await readChunk(reader, limits);
      if (done) break;
      total += value.byteLength;
      if (total > limits.maxBytes) {
        throw new ResponseTooLargeError(limits.maxBytes, { server: limits.server });
      }
      chunks.push(value);
    }
  } catch (error) {
    release(reader);
    throw error;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Options of {@linkcode readEvents}. */
export interface EventReadOptions extends ReadLimits {
  /**
   * `total`: the cap covers the whole stream. `event`: each event separately
   * (long-lived streams); data buffered across chunks is capped by the parser
   * and each event's data is checked when it completes.
   */
  capMode: "total" | "event";
  /** Bytes already counted against a `total` cap (a resumed stream continues the count). */
  counted?: { bytes: number };
  /** Called for each event; return `true` to stop reading (the rest of the stream is cancelled). */
  onEvent(event: EventSourceMessage): boolean | void;
  /** Called for each `retry:` field. */
  onRetry?(ms: number): void;
}

/**
 * Read a `text/event-stream` body until `onEvent` returns `true` (resolves
 * `"stopped"`) or the stream ends (resolves `"ended"`). An error thrown by
 * `onEvent` cancels the stream and rejects.
 */
export async function readEvents(
  body: ReadableStream<Uint8Array> | null,
  options: EventReadOptions,
): Promise<"stopped" | "ended"> {
  if (body === null) return "ended";
  const { server, maxBytes } = options;
  let stop = false;
  let failure: { error: unknown } | undefined;
  const parser = createParser({
    maxBufferSize: options.capMode === "event" ? maxBytes : undefined,
    onEvent(event) {
      if (stop || failure) return;
      if (options.capMode === "event" && event.data.length > maxBytes) {
        failure = { error: new ResponseTooLargeError(maxBytes, { server }) };
        return;
      }
      try {
        if (options.onEvent(event) === true) stop = true;
      } catch (error) {
        failure = { error };
      }
    },
    onRetry: (ms) => options.onRetry?.(ms),
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") {
        failure ??= { error: new ResponseTooLargeError(maxBytes, { server }) };
      }
    },
  });
  const counted = options.counted ?? { bytes: 0 };
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    while (!stop) {
      const { done, value } = await readChunk(reader, options);
      if (done) {
        parser.feed(decoder.decode());
        if (failure) throw failure.error;
        return stop ? "stopped" : "ended";
      }
      if (options.capMode === "total") {
        counted.bytes += value.byteLength;
        if (counted.bytes > maxBytes) throw new ResponseTooLargeError(maxBytes, { server });
      }
      parser.feed(decoder.decode(value, { stream: true }));
      if (failure) throw failure.error;
    }
  } catch (error) {
    release(reader);
    throw error;
  }
  release(reader);
  return "stopped";
}
