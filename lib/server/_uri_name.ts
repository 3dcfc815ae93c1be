// Private: the percent-decoded name in a `skill://` URI. Malformed percent-encoding (`skill://%ZZ`)
// is the client's mistake, answered as invalid params (-32602), not as an internal error.

/** The JSON-RPC code for invalid params. */
export const INVALID_PARAMS = -32602;

/**
 * A `skill://` URI whose percent-encoding does not decode: `code` says why, as every error of
 * the library does, and `rpcCode` is the JSON-RPC error it is answered with (as `RpcError`'s).
 */
export class MalformedUriError extends Error {
  readonly code: "malformed-uri" = "malformed-uri";
  /** Always {@linkcode INVALID_PARAMS}. */
  readonly rpcCode: number = INVALID_PARAMS;
  constructor(uri: string) {
    const shown = uri.length > 200 ? `${uri.slice(0, 200)}…` : uri;
    super(`Invalid params: ${JSON.stringify(shown)} has malformed percent-encoding (e.g. %ZZ)`);
    this.name = "MalformedUriError";
  }
}

/** `decodeURIComponent(segment)`, throwing {@linkcode MalformedUriError} (naming `uri`) if malformed. */
export function decodeUriName(segment: string, uri: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new MalformedUriError(uri);
  }
}
