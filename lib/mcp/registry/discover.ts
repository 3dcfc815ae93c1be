/**
 * What a server offers: its tools and skill resources, with the time of discovery.
 *
 * @module
 */

import type { CallOptions, McpClient } from "../client_types.ts";
import { hasSkillTemplate, type SkillResource, skillResources } from "../skill_resources.ts";
import type { Implementation, Tool, TransportKind } from "../types.ts";

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
  /** Every tool. */
  tools: Tool[];
  /** Every resource recognised as a skill. */
  skills: SkillResource[];
  /** Whether `skill://{name}` templates let unlisted skills be read by name. */
  skillTemplate: boolean;
}

/**
 * List a connected server's tools and skill resources (only what its
 * capabilities announce).
 *
 * @example
 * ```ts
 * import { connect, discoverServer } from "@skillmux/core";
 * const client = await connect({ name: "skills", url: "http://127.0.0.1:3001/mcp" });
 * const found = await discoverServer(client);
 * console.log(found.tools.length, found.skills.map((s) => s.name));
 * await client.close();
 * ```
 */
export async function discoverServer(
  client: McpClient,
  options: CallOptions = {},
): Promise<ServerDiscovery> {
  const caps = client.capabilities;
  const [tools, resources, templates] = await Promise.all([
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
    tools,
    skills: skillResources(resources),
    skillTemplate: hasSkillTemplate(templates),
  };
}
