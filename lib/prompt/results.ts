/**
 * MCP tool results in the shapes the model APIs expect.
 *
 * @module
 */

import type { ContentBlock } from "../mcp/protocol/types.ts";
import type { AnthropicResultBlock, ToolCallResult } from "./types.ts";

/** A short description of a block that is not text. */
function describe(block: ContentBlock): string {
  switch (block.type) {
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${Math.floor(block.data.length * 3 / 4)} bytes]`;
    case "resource":
      return typeof block.resource.text === "string"
        ? block.resource.text
        : `[resource ${block.resource.uri}${
          block.resource.mimeType ? ` (${block.resource.mimeType})` : ""
        }]`;
    case "resource_link":
      return `[link ${block.name}: ${block.uri}]`;
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

/**
 * The text of `content` (non-text blocks described), or the structured content as JSON.
 *
 * @example
 * ```ts
 * import { contentText } from "./results.ts";
 * console.log(contentText([{ type: "text", text: "42 rows" }])); // "42 rows"
 * ```
 */
export function contentText(content: readonly ContentBlock[], structured?: unknown): string {
  const parts = content.map((b) => (b.type === "text" ? b.text : describe(b)));
  if (parts.length === 0 && structured !== undefined) return JSON.stringify(structured);
  return parts.join("\n");
}

/** Anthropic blocks: text as text, images inline (base64), anything else described. */
function anthropicBlocks(
  content: readonly ContentBlock[],
  structured?: unknown,
): AnthropicResultBlock[] {
  const blocks: AnthropicResultBlock[] = content.map((b) =>
    b.type === "image" && /^image\/(png|jpeg|gif|webp)$/.test(b.mimeType)
      ? { type: "image", source: { type: "base64", media_type: b.mimeType, data: b.data } }
      : { type: "text", text: b.type === "text" ? b.text : describe(b) }
  );
  if (blocks.length === 0) {
    blocks.push({ type: "text", text: structured === undefined ? "" : JSON.stringify(structured) });
  }
  return blocks;
}

/**
 * The result of a call in the format it came in.
 *
 * @example
 * ```ts
 * import { reply } from "./results.ts";
 * const result = reply("openai", "call_1", "gh__search", false, [{ type: "text", text: "ok" }], []);
 * if (result.format === "openai") console.log(result.reply); // { role: "tool", tool_call_id: "call_1", … }
 * ```
 */
export function reply(
  format: "openai" | "anthropic",
  callId: string,
  id: string,
  isError: boolean,
  content: ContentBlock[],
  diagnostics: string[],
  structured?: unknown,
): ToolCallResult {
  const base = { id, isError, content, diagnostics };
  if (format === "openai") {
    const text = contentText(content, structured);
    return {
      ...base,
      format,
      reply: { role: "tool", tool_call_id: callId, content: isError ? `Error: ${text}` : text },
    };
  }
  return {
    ...base,
    format,
    reply: {
      type: "tool_result",
      tool_use_id: callId,
      content: anthropicBlocks(content, structured),
      ...(isError ? { is_error: true } : {}),
    },
  };
}
