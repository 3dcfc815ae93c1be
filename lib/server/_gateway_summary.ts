// Private: what lies behind `find_tools`, in its description: how many callable tools, of which
// servers, about what (per server, the words its tools' names and descriptions share), and how many
// wait for approval. Agents skip a discovery tool whose description does not say what it finds;
// this one says it, and changes with the view (the gateway sends tools/list_changed then).

import type { CatalogEntry } from "../catalog/model/types.ts";

/** Most servers named (the rest are counted). */
const MAX_SERVERS = 8;
/** Most topic words per server. */
const MAX_TOPICS = 6;

const STOP = new Set(
  ("a about after all also an and any are as at be been by can each for from get gets given has " +
    "have how if in into is it its may more most not of on one or other out over set sets so " +
    "such than that the their them then there these this those to tool tools two up use used " +
    "uses using via was what when which while who will with within without you your returns " +
    "return list lists data value values new run runs make makes mcp server servers client " +
    "content multiple based demonstrates demonstrate demo example examples specified optional " +
    "including provided provides provide given simple various etc support supports request " +
    "requests response responses result results").split(" "),
);

/** The words of `text` (camelCase and snake_case split, stop words and numbers out). */
function words(text: string): Set<string> {
  const out = new Set<string>();
  const split = text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/);
  for (const word of split) {
    if (word.length < 3 || STOP.has(word) || /^\d+$/.test(word)) continue;
    out.add(word);
  }
  return out;
}

/**
 * The words a server's tools share, most weight first: a word of a tool's name weighs three, one
 * of its description one (the server's own name left out).
 */
export function topics(entries: readonly CatalogEntry[], server: string): string[] {
  const weight = new Map<string, number>();
  for (const entry of entries) {
    const named = words(`${entry.name} ${entry.title ?? ""}`);
    for (const word of named) weight.set(word, (weight.get(word) ?? 0) + 3);
    for (const word of words(entry.description)) {
      if (!named.has(word)) weight.set(word, (weight.get(word) ?? 0) + 1);
    }
  }
  weight.delete(server.toLowerCase());
  return [...weight].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_TOPICS).map(([word]) => word);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The description of `find_tools` over the callable `tools` (catalog entries) with `held`
 * entries waiting for approval.
 */
export function findToolsDescription(
  tools: readonly CatalogEntry[],
  held: number,
  approveCommand: string,
): string {
  const byServer = new Map<string, CatalogEntry[]>();
  for (const tool of tools) {
    const server = tool.server ?? "?";
    byServer.set(server, [...(byServer.get(server) ?? []), tool]);
  }
  const servers = [...byServer].sort(([a, m], [b, n]) => n.length - m.length || (a < b ? -1 : 1));
  const named = servers.slice(0, MAX_SERVERS).map(([name, of]) => {
    const about = topics(of, name);
    return `${name} (${of.length}${about.length ? `: ${about.join(", ")}` : ""})`;
  });
  if (servers.length > MAX_SERVERS) named.push(`${servers.length - MAX_SERVERS} more`);
  const waiting = held === 0
    ? ""
    : ` ${plural(held, "more tool waits", "more tools wait")} for a person's approval ` +
      `(${approveCommand}); find_tools names those that fit.`;
  if (tools.length === 0) {
    return "Find the tools of the user's MCP servers for a task. No tool can be called yet." +
      (waiting || " No MCP server with tools is registered.");
  }
  return `Find, among ${plural(tools.length, "tool")} of ${plural(servers.length, "MCP server")} (${
    named.join("; ")
  }), the ones for a task, ranked by relevance` +
    ". Use it before deciding a task cannot be done with tools. Returns each tool's id, " +
    `description and input schema; run one with call_tool.${waiting}`;
}
