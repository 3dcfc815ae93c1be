// Private: read a `text/event-stream` body event by event, with a byte cap (the whole stream or
// each event), a stall timer and a cancellation signal. Loaded only when a server streams: an
// answer as JSON never needs it.

import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ResponseTooLargeError } from "../protocol/errors.ts";
import { readChunk, type ReadLimits, release } from "./_stream.ts";

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
