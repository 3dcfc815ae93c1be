// Private: answer server-to-client requests with the host's handlers — the same code for a
// 2025 JSON-RPC request on a stream and for a 2026-07-28 `inputRequests` entry (SEP-2322).

import { RpcError } from "../protocol/errors.ts";
import type {
  ClientHandlers,
  CreateMessageParams,
  ElicitRequestParams,
  ElicitResult,
  ServerRequestContext,
} from "./client_handlers.ts";

/** SEP-1034: on `accept`, fill every field the user left out with the schema's `default`. */
export function applyElicitDefaults(
  params: ElicitRequestParams,
  result: ElicitResult,
): ElicitResult {
  const properties = params.requestedSchema?.properties;
  if (result.action !== "accept" || properties === undefined) return result;
  const content = { ...(result.content ?? {}) };
  for (const [key, field] of Object.entries(properties)) {
    if (content[key] === undefined && field?.default !== undefined) content[key] = field.default;
  }
  return { ...result, content };
}

const notFound = (method: string, server: string) =>
  new RpcError(-32601, `Method not found: ${method}`, undefined, { server });

/**
 * The result for one server request, from the host's handlers. Throws `RpcError` -32601 for a
 * method without a handler (and for anything but elicitation, sampling and roots).
 */
export async function answerServerRequest(
  method: string,
  params: Record<string, unknown> | undefined,
  handlers: ClientHandlers | undefined,
  context: ServerRequestContext,
): Promise<Record<string, unknown>> {
  const body = params ?? {};
  if (method === "elicitation/create" && handlers?.elicitation) {
    const request = body as ElicitRequestParams;
    return applyElicitDefaults(request, await handlers.elicitation(request, context));
  }
  if (method === "sampling/createMessage" && handlers?.sampling) {
    return await handlers.sampling(body as CreateMessageParams, context);
  }
  if (method === "roots/list" && handlers?.roots) {
    return { roots: await handlers.roots(context) };
  }
  throw notFound(method, context.server);
}
