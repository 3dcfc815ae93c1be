/**
 * The connect-time half of the strict URL policy: resolve the host name and
 * refuse it when any address it resolves to is not public (the DNS-rebinding
 * and "public name, private address" defence).
 *
 * @module
 */

import { hasNodeBuiltins, nodeBuiltins } from "../../_node.ts";
import { NetworkError } from "../protocol/errors.ts";
import { classifyAddress } from "./_address.ts";
import { policyError } from "./_error.ts";
import type { HostLookup, ResolvedAddress, UrlPolicyOptions } from "./url.ts";

export type { HostLookup, ResolvedAddress } from "./url.ts";

/** Options of {@linkcode checkConnectTarget}. */
export interface ConnectTargetOptions {
  /** The server name, for errors. */
  server?: string;
  /**
   * Resolve a host name to every address it has. Default: the policy's
   * `lookup`, else on Deno/Node `dns.lookup(host, { all: true })` (the
   * resolver `fetch` uses). In a browser, with no resolver given, host names
   * are not checked.
   */
  lookup?: HostLookup;
}

function defaultLookup(): HostLookup | undefined {
  if (!hasNodeBuiltins()) return undefined;
  const { dns } = nodeBuiltins("checkConnectTarget");
  return (hostname) => dns.lookup(hostname, { all: true });
}

/**
 * Check the address a URL points to against the policy at connect time. In
 * `strict` mode this resolves the host name and throws `PolicyError` (field
 * `url`) when **any** address is private, reserved, loopback, link-local or
 * otherwise not public; a name that does not resolve is a `NetworkError`. An IP
 * literal is classified directly. In `default` mode it does nothing.
 *
 * Limits, by runtime: on Deno and Node the check uses the system resolver, as
 * `fetch` does, just before the request; `fetch` resolves again, so a resolver
 * that answers differently within that short window is not caught (pin the
 * address with an egress proxy if that matters). Browsers cannot resolve names
 * at all: there this is a no-op for host names, and the browser's own rules
 * (mixed content, CORS, Private Network Access) apply.
 *
 * @example
 * ```ts
 * import { checkConnectTarget } from "@skillmux/core/policy";
 * await checkConnectTarget(new URL("https://example.com/mcp"), { mode: "default" });
 * const lookup = () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]);
 * await checkConnectTarget(new URL("https://rebind.test/mcp"), { mode: "strict" }, { lookup })
 *   .catch((error) => console.log(error.name)); // "PolicyError"
 * ```
 */
export async function checkConnectTarget(
  url: URL,
  policy: UrlPolicyOptions = {},
  options: ConnectTargetOptions = {},
): Promise<void> {
  if (policy.mode !== "strict") return;
  const { server } = options;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const origin = JSON.stringify(`${url.protocol}//${url.host}`);
  const literal = classifyAddress(host);
  if (literal !== undefined) {
    if (literal.blocked) {
      throw policyError(
        `url ${origin} is not a public address: ${literal.reason}; strict mode allows public addresses only`,
        "url",
        server,
      );
    }
    return;
  }
  const lookup = options.lookup ?? policy.lookup ?? defaultLookup();
  if (lookup === undefined) return;
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    throw new NetworkError(
      `${server === undefined ? "" : `Server ${JSON.stringify(server)}: `}cannot resolve host ${
        JSON.stringify(host)
      }`,
      { server, cause: error },
    );
  }
  if (addresses.length === 0) {
    throw new NetworkError(`host ${JSON.stringify(host)} resolved to no address`, { server });
  }
  for (const { address } of addresses) {
    const found = classifyAddress(address);
    if (found === undefined || found.blocked) {
      throw policyError(
        `url ${origin} resolves to ${address}, which is not a public address: ${
          found?.reason ?? "not an IP address"
        }; strict mode allows public addresses only`,
        "url",
        server,
      );
    }
  }
}
