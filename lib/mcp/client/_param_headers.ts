// Private: 2026-07-28 request headers that mirror the body (SEP-2243): the value encoding shared
// by `Mcp-Name` and `Mcp-Param-*`, the `x-mcp-header` rules that make a tool valid or not, and
// the `Mcp-Param-*` headers of one `tools/call`.

import type { Tool } from "../protocol/types.ts";
import { encodeHeaderValue } from "../protocol/_encode.ts";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** One annotated parameter: where its value is and which header carries it. */
export interface ParamHeader {
  path: string[];
  name: string;
}

type Schema = Record<string, unknown>;
const isObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** How many `x-mcp-header` keys a schema holds anywhere. */
function countAnnotations(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countAnnotations(item), 0);
  if (!isObject(value)) return 0;
  let count = "x-mcp-header" in value ? 1 : 0;
  for (const item of Object.values(value)) count += countAnnotations(item);
  return count;
}

/**
 * The `Mcp-Param-*` headers a tool designates, or why its annotations make it invalid: an empty
 * or non-token name, a duplicate (case-insensitive), a type other than string, integer or boolean,
 * or an annotation not reachable through `properties` alone.
 */
export function paramHeaders(tool: Tool): ParamHeader[] | { invalid: string } {
  const found: ParamHeader[] = [];
  const seen = new Set<string>();
  const walk = (schema: Schema, path: string[]): string | undefined => {
    const properties = schema.properties;
    if (!isObject(properties)) return undefined;
    for (const [key, child] of Object.entries(properties)) {
      if (!isObject(child)) continue;
      const name = child["x-mcp-header"];
      if (name !== undefined) {
        if (typeof name !== "string" || !TOKEN.test(name)) {
          return `x-mcp-header ${JSON.stringify(name)} on "${key}" is not an HTTP token`;
        }
        if (seen.has(name.toLowerCase())) return `x-mcp-header "${name}" is used twice`;
        if (!["string", "integer", "boolean"].includes(child.type as string)) {
          return `x-mcp-header "${name}" is on a ${JSON.stringify(child.type)} parameter`;
        }
        seen.add(name.toLowerCase());
        found.push({ path: [...path, key], name });
      }
      const nested = walk(child, [...path, key]);
      if (nested) return nested;
    }
    return undefined;
  };
  const schema = isObject(tool.inputSchema) ? tool.inputSchema : {};
  const problem = walk(schema, []);
  if (problem) return { invalid: problem };
  if (countAnnotations(schema) !== found.length) {
    return { invalid: "an x-mcp-header is not reachable through properties alone" };
  }
  return found;
}

/** The `Mcp-Param-*` headers of one call (a parameter that is absent or null gets none). */
export function paramHeaderValues(
  specs: readonly ParamHeader[],
  args: Record<string, unknown>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, name } of specs) {
    let value: unknown = args;
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    headers[`Mcp-Param-${name}`] = encodeHeaderValue(
      typeof value === "string" ? value : JSON.stringify(value),
    );
  }
  return headers;
}
