/**
 * What a server offers: its tools, resources and resource templates, with the
 * time of discovery. Which resources are skills is the resolver's business
 * (`skillResources` in the resolve layer).
 *
 * @module
 */

import type { CallOptions, McpClient } from "../client/client_types.ts";
import type { ServerHint } from "../client/connect_options.ts";
import type {
  Implementation,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
  TransportKind,
} from "../protocol/types.ts";

/** A snapshot of what one server offers. */
export interface ServerDiscovery {
  /** The server name. */
  name: string;
  /** ISO time of discovery. */
  discoveredAt: string;
  /** Name and version the server reported. */
  serverInfo: Implementation;
  /** The negotiated protocol version. */
  protocolVersion: string;
  /** The transport used. */
  transport: TransportKind;
  /** What the server said it can do (also tells whether it offers the skills extension). */
  capabilities?: ServerCapabilities;
  /** Every tool. */
  tools: Tool[];
  /** Every resource. */
  resources: Resource[];
  /** Every resource template. */
  resourceTemplates: ResourceTemplate[];
  /** The protocol era and transport learnt (connect with it to skip the era probe). */
  hint?: ServerHint;
}

/**
 * List a connected server's tools, resources and resource templates (only what
 * its capabilities announce).
 *
 * @example
 * ```ts
 * import { connect } from "@skillmux/core";
 * import { discoverServer } from "@skillmux/core/mcp";
 * const client = await connect({ name: "docs", url: "http://127.0.0.1:3001/mcp" });
 * const found = await discoverServer(client);
 * console.log(found.tools.length, found.resources.map((r) => r.uri));
 * await client.close();
 * ```
 */
export async function discoverServer(
  client: McpClient,
  options: CallOptions = {},
): Promise<ServerDiscovery> {
  const caps = client.capabilities;
  const [tools, resources, resourceTemplates] = await Promise.all([
    caps.tools ? client.listTools(options) : Promise.resolve([]),
    caps.resources ? client.listResources(options) : Promise.resolve([]),
    caps.resources ? client.listResourceTemplates(options).catch(() => []) : Promise.resolve([]),
  ]);
  return {
    name: client.name,
    discoveredAt: new Date().toISOString(),
    serverInfo: client.serverInfo,
    protocolVersion: client.protocolVersion,
    transport: client.transport,
    capabilities: caps,
    tools,
    resources,
    resourceTemplates,
    hint: client.hint,
  };
}
