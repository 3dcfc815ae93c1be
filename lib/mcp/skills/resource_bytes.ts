/**
 * One resource of an MCP server read as bytes and text, whether the server sent it as text or as
 * a base64 blob: what the skills extension verifies against a listed digest, and what the
 * resolver's MCP source serves as a skill's file.
 *
 * @module
 */

import { ProtocolError } from "../protocol/errors.ts";
import type { McpClient } from "../client/client_types.ts";
import type { SkillReadOptions } from "./types.ts";

/**
 * The raw bytes and text of one resource read (the content item of `uri`, else the first).
 *
 * @param client A connected client.
 * @param uri The resource to read.
 * @param options The read's signal and timeout.
 * @returns Its text and its bytes (UTF-8 of the text, or the decoded blob).
 * @throws {ProtocolError} when the server sends neither text nor a blob.
 *
 * @example
 * ```ts
 * import { readResourceBytes } from "./resource_bytes.ts";
 * import type { McpClient } from "../client/client_types.ts";
 * declare const client: McpClient;
 * const { bytes } = await readResourceBytes(client, "skill://pdf/SKILL.md", {});
 * console.log(bytes.length);
 * ```
 */
export async function readResourceBytes(
  client: McpClient,
  uri: string,
  options: SkillReadOptions,
): Promise<{ text: string; bytes: Uint8Array }> {
  const contents = await client.readResource(uri, options);
  const item = contents.find((c) => c.uri === uri) ?? contents[0];
  if (typeof item?.text === "string") {
    return { text: item.text, bytes: new TextEncoder().encode(item.text) };
  }
  if (typeof item?.blob === "string") {
    const bytes = Uint8Array.from(atob(item.blob), (c) => c.charCodeAt(0));
    return { text: new TextDecoder().decode(bytes), bytes };
  }
  throw new ProtocolError(`${client.name}: ${uri} came back empty`, { server: client.name });
}
