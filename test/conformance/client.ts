// The conformance client: what a host built on skillmux does in each client scenario of the
// official harness (@modelcontextprotocol/conformance), through the public API only.
//
//   node --import tsx test/conformance/client.ts <server-url>
//
// The harness sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT for some scenarios).
// Exit 0 when the scenario's flow completed; 1 with a message otherwise (a refusal the scenario
// expects, such as a skill that fails verification, also exits 1: the harness allows it).

import process from "node:process";
import {
  connect,
  type ConnectOptions,
  isMcpError,
  type McpClient,
  type Tool,
} from "../../lib/mod.ts";
import { listSkillEntries, loadSkill, offersSkills, readSkillFile } from "../../lib/mcp/mod.ts";
import type { AuthOptions } from "../../lib/mcp/auth/mod.ts";

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const log = (line: string) => console.error(line);

async function open(options: ConnectOptions = {}): Promise<McpClient> {
  return await connect({ name: "conformance", url }, { timeoutMs: 10_000, log, ...options });
}

/** Arguments a tool's schema asks for, made up from the types (strings "x", numbers 1, …). */
function sample(tool: Tool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
  const made: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(properties)) {
    const type = schema.type;
    made[key] = type === "integer" || type === "number"
      ? 1
      : type === "boolean"
      ? true
      : type === "object"
      ? {}
      : type === "array"
      ? []
      : "x";
  }
  return made;
}

const flows: Record<string, () => Promise<void>> = {
  async initialize() {
    const client = await open();
    await client.listTools();
    await client.close();
  },
  async tools_call() {
    const client = await open();
    const [tool] = await client.listTools();
    if (tool) await client.callTool(tool.name, { a: 2, b: 3 });
    await client.close();
  },
  async "elicitation-sep1034-client-defaults"() {
    const client = await open({
      handlers: { elicitation: () => ({ action: "accept", content: {} }) },
    });
    await client.listTools();
    await client.callTool("test_client_elicitation_defaults", {});
    await client.close();
  },
  async "sse-retry"() {
    const client = await open({ timeoutMs: 15_000 });
    const [tool] = await client.listTools();
    await client.callTool(tool.name, {});
    await client.close();
  },
  async "request-metadata"() {
    const client = await open({
      handlers: { elicitation: () => ({ action: "decline" }), roots: () => [] },
    });
    await client.listTools();
    await client.close();
  },
  async "http-standard-headers"() {
    const client = await open();
    for (const tool of await client.listTools()) await client.callTool(tool.name, {});
    for (const resource of await client.listResources()) await client.readResource(resource.uri);
    for (const prompt of await client.listPrompts()) await client.getPrompt(prompt.name);
    await client.close();
  },
  async "http-custom-headers"() {
    const client = await open();
    await client.listTools();
    for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments);
    await client.close();
  },
  async "http-invalid-tool-headers"() {
    const client = await open();
    for (const tool of await client.listTools()) await client.callTool(tool.name, sample(tool));
    await client.close();
  },
  async "json-schema-ref-no-deref"() {
    const client = await open();
    await client.listTools();
    await client.close();
  },
  async "json-schema-2020-12-preservation"() {
    const client = await open();
    const focal = (await client.listTools()).find((t) => t.name === "json_schema_2020_12_tool");
    if (!focal) throw new Error("json_schema_2020_12_tool is not listed");
    await client.callTool("json_schema_echo", { schema: focal.inputSchema });
    await client.close();
  },
  async "sep-2322-client-request-state"() {
    const held: { client?: McpClient } = {};
    let unrelatedCalled = false;
    const client = held.client = await open({
      handlers: {
        async elicitation() {
          // A request sent while an input-required round is open must not carry its state.
          if (!unrelatedCalled && held.client) {
            unrelatedCalled = true;
            await held.client.callTool("test_mrtr_unrelated", {});
          }
          return { action: "accept", content: { confirmed: true } };
        },
      },
    });
    await client.listTools();
    await client.callTool("test_mrtr_echo_state", {});
    await client.callTool("test_mrtr_no_state", {});
    await client.callTool("test_mrtr_no_result_type", {});
    await client.close();
  },
};

/**
 * The `auth` option of the OAuth scenarios: a client metadata URL (used when the server supports
 * CIMD), dynamic registration otherwise, and an `onAuthorize` that plays the user: it fetches
 * the authorization URL and hands back the redirect (the harness approves at once).
 */
function oauth(): AuthOptions {
  const ctx = context as Record<string, string | undefined>;
  const auth: AuthOptions = {
    redirectUri: "http://localhost:3000/callback",
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    async onAuthorize(authorizationUrl) {
      const response = await fetch(authorizationUrl, { redirect: "manual" });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (location === null) throw new Error("the authorization endpoint did not redirect");
      return new URL(location, authorizationUrl);
    },
  };
  if (scenario === "auth/pre-registration") {
    auth.clientId = ctx.client_id;
    auth.clientSecret = ctx.client_secret;
  }
  if (scenario.startsWith("auth/client-credentials-")) {
    auth.clientCredentials = {
      clientId: ctx.client_id!,
      clientSecret: ctx.client_secret,
      privateKey: ctx.private_key_pem,
      algorithm: ctx.signing_algorithm,
    };
  }
  return auth;
}

async function authorized(): Promise<void> {
  const client = await open({ auth: oauth() });
  const [tool] = await client.listTools();
  if (tool) await client.callTool(tool.name, {});
  await client.close();
}

for (
  const name of [
    "metadata-default",
    "metadata-var1",
    "metadata-var2",
    "metadata-var3",
    "basic-cimd",
    "scope-from-www-authenticate",
    "scope-from-scopes-supported",
    "scope-omitted-when-undefined",
    "scope-step-up",
    "scope-retry-limit",
    "token-endpoint-auth-basic",
    "token-endpoint-auth-post",
    "token-endpoint-auth-none",
    "pre-registration",
    "2025-03-26-oauth-metadata-backcompat",
    "2025-03-26-oauth-endpoint-fallback",
    "resource-mismatch",
    "offline-access-scope",
    "offline-access-not-supported",
    "authorization-server-migration",
    "iss-supported",
    "iss-not-advertised",
    "iss-supported-missing",
    "iss-wrong-issuer",
    "iss-unexpected",
    "iss-normalized",
    "metadata-issuer-mismatch",
    "client-credentials-jwt",
    "client-credentials-basic",
    "dpop",
    "dpop-nonce",
  ]
) flows[`auth/${name}`] = authorized;

/** SEP-2640: list; unless the scenario is about prefetching, load the skill and read its files. */
async function skills(loadAndRead: boolean): Promise<void> {
  const client = await open();
  try {
    if (!offersSkills(client)) throw new Error("the server does not declare the skills extension");
    const { skills: entries } = await listSkillEntries(client);
    if (!loadAndRead) return;
    for (const entry of entries) {
      const loaded = await loadSkill(client, entry);
      const files = entry.resources === "dynamic" ? [] : entry.resources;
      for (const file of files) {
        if (file.uri !== entry.uri) await readSkillFile(client, loaded.entry, file.uri);
      }
    }
  } finally {
    await client.close();
  }
}

flows["sep-2640-client-no-prefetch"] = () => skills(false);
for (const name of ["digest", "size", "frontmatter"]) {
  flows[`sep-2640-client-verify-${name}`] = () => skills(true);
}

const flow = flows[scenario];
if (url === undefined || flow === undefined) {
  console.error(
    scenario.startsWith("auth/")
      ? `${scenario}: OAuth is not implemented in skillmux yet`
      : `usage: MCP_CONFORMANCE_SCENARIO=<scenario> client.ts <server-url> (unknown "${scenario}")`,
  );
  process.exit(1);
}
try {
  await flow();
  process.exit(0);
} catch (error) {
  console.error(
    `${scenario}: ${isMcpError(error) ? `${error.name}: ` : ""}${(error as Error).message}`,
  );
  if (process.env.SKILLMUX_DEBUG) console.error((error as Error).stack);
  process.exit(1);
}
