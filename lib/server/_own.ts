// Private: requests the skills server answers itself rather than through the SDK (which speaks
// 2025 revisions only): every 2026-07-28 request (stateless, `_meta` on each request, caching
// hints, header checks) and, in either era, the skills extension (`skills/list`, `skills/get`)
// and reads of skill files (`skill://<name>/SKILL.md`, `skill://<name>/<path>`).

import type { IncomingMessage } from "node:http";
import type { SkillCatalog } from "./_catalog.ts";
import { INSTRUCTIONS } from "./_mcp.ts";
import { skillResult } from "./_skill_rpc.ts";
import { callSkillTool } from "./_skill_tools.ts";
import { SKILL_TOOLS } from "./_tools.ts";
import { MalformedUriError } from "./_uri_name.ts";

const MODERN = "2026-07-28";
const SKILLS = "io.modelcontextprotocol/skills";
const TTL = { ttlMs: 60_000, cacheScope: "public" };
const NAMED: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};
const CAPABILITIES = {
  tools: {},
  resources: { listChanged: true },
  extensions: { [SKILLS]: {} },
};

/** An answer: HTTP status and JSON-RPC body. */
export interface OwnAnswer {
  status: number;
  body: Record<string, unknown>;
}

type Rpc = { id?: string | number; method?: string; params?: Record<string, unknown> };

/** The protocol version a request speaks in `_meta`, if it is a 2026-07-28-style request. */
export function modernVersion(req: IncomingMessage, rpc: Rpc | undefined): string | undefined {
  const meta = rpc?.params?._meta as Record<string, unknown> | undefined;
  const version = meta?.["io.modelcontextprotocol/protocolVersion"];
  if (typeof version === "string") return version;
  const header = req.headers["mcp-protocol-version"];
  return typeof header === "string" && header >= "2026" ? header : undefined;
}

/** Whether a legacy request is one the SDK does not know: skills/* or a skill file read. */
export function ownsLegacy(rpc: Rpc | undefined): boolean {
  const method = rpc?.method;
  if (method === "skills/list" || method === "skills/get") return true;
  return method === "resources/read" && /^skill:\/\/[^/]+\/.+/.test(String(rpc?.params?.uri));
}

const error = (id: unknown, status: number, code: number, message: string, data?: unknown) => ({
  status,
  body: { jsonrpc: "2.0", id: id ?? null, error: { code, message, ...(data ? { data } : {}) } },
});

function decoded(value: string): string {
  const match = /^=\?base64\?(.*)\?=$/.exec(value);
  return match ? Buffer.from(match[1], "base64").toString("utf8") : value;
}

/** The header problem of a modern request, if any (SEP-2243 server validation). */
function headerProblem(req: IncomingMessage, rpc: Rpc, version: string): string | undefined {
  if (req.headers["mcp-protocol-version"] !== version) {
    return "MCP-Protocol-Version header does not match _meta protocolVersion";
  }
  if (req.headers["mcp-method"] !== rpc.method) return "Mcp-Method header does not match the body";
  const key = NAMED[rpc.method ?? ""];
  const name = req.headers["mcp-name"];
  if (key && (typeof name !== "string" || decoded(name) !== rpc.params?.[key])) {
    return "Mcp-Name header does not match the body";
  }
  return undefined;
}

/** The result of one method, or `undefined` for an unknown one. */
async function result(catalog: SkillCatalog, method: string, params: Record<string, unknown>) {
  switch (method) {
    case "server/discover":
      return {
        supportedVersions: [MODERN],
        capabilities: CAPABILITIES,
        instructions: INSTRUCTIONS,
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "skillmux", version: "0.1.0" } },
        ...TTL,
      };
    case "tools/list":
      return { tools: SKILL_TOOLS, ...TTL };
    case "tools/call": {
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      return await callSkillTool(catalog, String(params.name), args) ?? null;
    }
    default: {
      const found = await skillResult(catalog, method, params);
      return found === null || found === undefined ? found : { ...found, ...TTL };
    }
  }
}

/** Answer a request this server handles itself; `modern` is the 2026-07-28 version asked for. */
export async function answerOwn(
  catalog: SkillCatalog,
  req: IncomingMessage,
  rpc: Rpc,
  modern: string | undefined,
): Promise<OwnAnswer> {
  const { id, method = "" } = rpc;
  if (id === undefined) return { status: 202, body: {} };
  if (modern !== undefined) {
    if (modern !== MODERN) {
      return error(id, 400, -32022, "Unsupported protocol version", {
        supported: [MODERN],
        requested: modern,
      });
    }
    const problem = headerProblem(req, rpc, modern);
    if (problem) return error(id, 400, -32020, `Header mismatch: ${problem}`);
  }
  let found: Awaited<ReturnType<typeof result>>;
  try {
    found = await result(catalog, method, rpc.params ?? {});
  } catch (e) {
    if (e instanceof MalformedUriError) {
      return error(id, 200, e.rpcCode, e.message, { uri: rpc.params?.uri });
    }
    throw e;
  }
  if (found === undefined) return error(id, 404, -32601, `Method not found: ${method}`);
  if (found === null) {
    const what = method === "tools/call" ? `Tool ${rpc.params?.name}` : `${rpc.params?.uri}`;
    return error(id, 200, -32602, `${what} not found`);
  }
  return {
    status: 200,
    body: { jsonrpc: "2.0", id, result: { resultType: "complete", ...found } },
  };
}
