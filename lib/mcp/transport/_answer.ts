// Private: read the answer to one Streamable HTTP POST — a JSON body or an SSE
// stream — and pick out the response to our request. Everything else the
// server sends along is routed; responses with other ids are ignored (logged).
// An SSE stream that ends or drops before our response is resumed once with
// GET + `Last-Event-ID` when the server gave event ids; else a clean end is
// `StreamEndedError` and a drop the `NetworkError` it was, at once.

import {
  NetworkError,
  ProtocolError,
  ResponseTooLargeError,
  StreamEndedError,
} from "../protocol/errors.ts";
import type { JsonRpcRequest, JsonRpcResponse } from "../protocol/types.ts";
import type { Settings } from "./_base.ts";
import { type HttpContext, scrub } from "./_http.ts";
import { type IncomingMessage, parseMessages } from "./_jsonrpc.ts";
import { sleep } from "./_retry.ts";
import type { Router } from "./_router.ts";
import { readBody } from "./_stream.ts";

/** What reading one answer needs. */
export interface AnswerJob {
  ctx: HttpContext;
  settings: Settings;
  router: Router;
  request: JsonRpcRequest;
  response: Response;
  signal: AbortSignal;
  /** A long-lived stream: no stall timer. */
  longLived?: boolean;
  /** The caller times the request (progress-aware): no stall timer. */
  watched?: boolean;
  /** Reopen the stream after `lastEventId`. */
  resume(lastEventId: string): Promise<ReadableStream<Uint8Array>>;
}

const HEADER_SAFE = /^[\x20-\x7E]{1,1024}$/;

/** The response to `job.request`, or a typed error. */
export async function readAnswer(job: AnswerJob): Promise<JsonRpcResponse> {
  const { ctx, settings, request, response, signal } = job;
  const { name } = ctx;
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const limits = { server: name, maxBytes: settings.maxResponseBytes, signal };
  if (type.includes("text/event-stream")) return await readStream(job);
  if (!type.includes("json")) {
    response.body?.cancel().catch(() => {});
    throw new ProtocolError(
      `${name}: unexpected answer to ${request.method} (HTTP ${response.status}, content type "${
        scrub(ctx, type.slice(0, 80))
      }")`,
      { server: name },
    );
  }
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > settings.maxResponseBytes) {
    response.body?.cancel().catch(() => {});
    throw new ResponseTooLargeError(settings.maxResponseBytes, { server: name });
  }
  const text = await readBody(response.body, limits);
  const found = pick(job, parseMessages(text, name, ctx.server.secrets), undefined);
  if (found !== undefined) return found;
  throw new ProtocolError(`${name}: the answer to ${request.method} held no response with its id`, {
    server: name,
  });
}

async function readStream(job: AnswerJob): Promise<JsonRpcResponse> {
  const { ctx, settings, request, signal } = job;
  const { name } = ctx;
  const counted = { bytes: 0 };
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let found: JsonRpcResponse | undefined;
  let body: ReadableStream<Uint8Array> | null = job.response.body;
  for (let resumed = false;; resumed = true) {
    let dropped: NetworkError | undefined;
    const { readEvents } = await import("./_events.ts");
    try {
      await readEvents(body, {
        server: name,
        maxBytes: settings.maxResponseBytes,
        signal,
        stallMs: job.longLived || job.watched ? undefined : settings.stallTimeoutMs,
        capMode: job.longLived ? "event" : "total",
        counted,
        onRetry: (ms) => (retryMs = ms),
        onEvent(event) {
          if (event.id !== undefined) lastEventId = event.id || undefined;
          if (event.event !== undefined && event.event !== "message") return;
          if (event.data.trim() === "") return; // a priming event
          found = pick(job, parseMessages(event.data, name, ctx.server.secrets), found);
          return found !== undefined;
        },
      });
    } catch (error) {
      if (!(error instanceof NetworkError) || signal.aborted) throw error;
      dropped = error; // the connection broke: resumable like a clean end
    }
    if (found !== undefined) return found;
    if (resumed || lastEventId === undefined || !HEADER_SAFE.test(lastEventId)) {
      if (dropped && !resumed) throw dropped; // nothing to resume from: a network error (retryable)
      throw new StreamEndedError(
        `${name}: the event stream for ${request.method} ended before its response`,
        {
          server: name,
          cause: dropped,
        },
      );
    }
    await sleep(Math.min(retryMs ?? settings.retryDelayMs, settings.maxRetryAfterMs), signal);
    body = await job.resume(lastEventId);
  }
}

/** Route everything but our response; return our response (the first one wins). */
function pick(job: AnswerJob, incoming: IncomingMessage[], found: JsonRpcResponse | undefined) {
  const { ctx, request } = job;
  for (const item of incoming) {
    if (item.kind !== "response") {
      job.router.handle(item);
      continue;
    }
    const response = item.message;
    if (response.id === request.id && found === undefined) {
      found = response;
    } else if (response.id === null && "error" in response && found === undefined) {
      const detail = scrub(ctx, `${response.error.code} ${response.error.message}`).slice(0, 200);
      throw new ProtocolError(`${ctx.name}: the server rejected ${request.method} (${detail})`, {
        server: ctx.name,
      });
    } else {
      ctx.log(
        `${ctx.name}: ignored a response with an unexpected or repeated id while waiting for ${request.method}`,
      );
    }
  }
  return found;
}
