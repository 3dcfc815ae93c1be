// Private: read HTTP bodies chunk by chunk with a byte cap, a stall timer and
// a cancellation signal. Nothing here buffers more than the cap: past it the
// reader is cancelled (the server sees the connection close) and the caller
// gets `ResponseTooLargeError`.

import { raceSignal } from "../../_abort.ts";
import { NetworkError, ResponseTooLargeError, StreamEndedError } from "../protocol/errors.ts";

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

/** A body reader. */
export type ByteReader = ReadableStreamDefaultReader<Uint8Array>;

/** Cancel a reader, ignoring failures. */
export function release(reader: ByteReader): void {
  reader.cancel().catch(() => {});
}

/** One chunk, within the signal and the stall timer. */
export async function readChunk(
  reader: ByteReader,
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
  return new TextDecoder().decode(await readBytes(body, limits));
}

/** {@linkcode readBody}'s bytes, undecoded (downloads whose digest is checked). */
export async function readBytes(
  body: ReadableStream<Uint8Array> | null,
  limits: ReadLimits,
): Promise<Uint8Array> {
  if (body === null) return new Uint8Array();
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
  return bytes;
}
