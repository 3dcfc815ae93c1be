/**
 * The `Bearer` (or `DPoP`) challenge of a `WWW-Authenticate` header (RFC 6750 §3, RFC 9728
 * §5.1, RFC 9449 §7.1).
 *
 * @module
 */

/** The parameters of a `Bearer` challenge that matter to an MCP client. */
export interface BearerChallenge {
  /** `resource_metadata`: the protected-resource metadata URL (RFC 9728). */
  resourceMetadata?: string;
  /** `scope`: the scopes the request needs. */
  scope?: string;
  /** `error`, e.g. `invalid_token` or `insufficient_scope`. */
  error?: string;
}

const PARAM = /([A-Za-z0-9_!#$%&'*+.^`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/y;

/**
 * The first `Bearer` or `DPoP` challenge in a `WWW-Authenticate` header value, or `undefined`
 * when there is none. Quoted values are unescaped; other schemes' parameters are skipped.
 *
 * @example
 * ```ts
 * import { parseBearerChallenge } from "@skillmux/core/oauth";
 * const c = parseBearerChallenge('Bearer error="insufficient_scope", scope="files:write"');
 * console.log(c?.error, c?.scope); // "insufficient_scope" "files:write"
 * ```
 */
export function parseBearerChallenge(
  header: string | null | undefined,
): BearerChallenge | undefined {
  if (!header) return undefined;
  let scheme: string | undefined;
  let found: Record<string, string> | undefined;
  let i = 0;
  while (i < header.length) {
    while (i < header.length && /[\s,]/.test(header[i])) i++;
    PARAM.lastIndex = i;
    const param = PARAM.exec(header);
    if (param && scheme !== undefined) {
      if (scheme === "bearer" && found) {
        found[param[1].toLowerCase()] = param[2] !== undefined
          ? param[2].replace(/\\(.)/g, "$1")
          : param[3];
      }
      i = PARAM.lastIndex;
      continue;
    }
    const token = /^[^\s,]+/.exec(header.slice(i));
    if (!token) break;
    scheme = token[0].toLowerCase();
    if (found !== undefined) break;
    // A DPoP server (RFC 9449 §7.1) challenges with the `DPoP` scheme and the same parameters.
    if (scheme === "dpop") scheme = "bearer";
    if (scheme === "bearer") found = {};
    i += token[0].length;
  }
  if (found === undefined) return undefined;
  const out: BearerChallenge = {};
  if (found.resource_metadata) out.resourceMetadata = found.resource_metadata;
  if (found.scope) out.scope = found.scope;
  if (found.error) out.error = found.error;
  return out;
}
