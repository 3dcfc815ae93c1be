// First-request prompt tokens (o200k) of an agent over 500 tools, side by side in one run:
// 8 SDK servers × 60 synthetic tools on 127.0.0.1 plus the built-in skills.
//  - every tool, as @ai-sdk/mcp's client.tools() or LangChain's MCP adapters hand them to the
//    model: each tool's name, description and input schema, no system text;
//  - skillmux selection (aiSdkTools: keyword selection, no model): system text + the selected
//    tools' definitions (+ activate_skill);
//  - skillmux discovery (aiSdkTools with discovery): the same plus find_tools, the active tools
//    of step 1.
// And the gzip -9 size of the ./ai-sdk and ./langchain entries (esbuild, minified, ESM, code
// splitting, the frameworks external): what loads first, all chunks (lazy ones: built-in skill
// texts, tokenizer, …), and the adapter's own code (the rest of skillmux external too).
//
//   node --import tsx bench/frameworks_tokens.ts

import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { asSchema } from "ai";
import {
  connect,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
} from "../lib/mod.ts";
import { countTokens } from "../lib/catalog/mod.ts";
import { aiSdkTools } from "../lib/frameworks/ai_sdk.ts";
import { startToolServer, type TestTool } from "../test/catalog/_servers.ts";
import { syntheticTool } from "./_synthetic.ts";
import { isMain } from "./_main.ts";

const REQUESTS = [
  "create an incident for the failed deployment in workspace 3",
  "export the sequencing run sample sheet of workspace 5",
];

async function definitionsTokens(tools: Record<string, unknown>, names: string[]) {
  const defs = [];
  for (const name of names) {
    const t = tools[name] as { description?: string; inputSchema: Parameters<typeof asSchema>[0] };
    defs.push({
      name,
      description: t.description,
      input_schema: await asSchema(t.inputSchema).jsonSchema,
    });
  }
  return await countTokens(JSON.stringify(defs));
}

/** gzip -9 bytes of an entry: what loads first (static imports) and all chunks (lazy ones too). */
async function entrySize(entry: string, own: boolean): Promise<{ first: number; all: number }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    minify: true,
    write: false,
    outdir: "out",
    metafile: true,
    logLevel: "error",
    external: ["ai", "ai/*", "@langchain/*", "node:*"],
    plugins: own
      ? [{
        name: "rest-of-skillmux-external",
        setup(b) {
          b.onResolve({ filter: /^\.\.\// }, (args) => ({ path: args.path, external: true }));
        },
      }]
      : [],
  });
  const gz = new Map(
    result.outputFiles.map((f) => [
      f.path.slice(f.path.lastIndexOf("/out/") + 1),
      gzipSync(f.contents, { level: 9 }).length,
    ]),
  );
  const outputs = result.metafile!.outputs;
  const start = Object.keys(outputs).find((k) => outputs[k].entryPoint === entry)!;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !(key in outputs)) return;
    seen.add(key);
    for (const i of outputs[key].imports) if (i.kind === "import-statement") visit(i.path);
  };
  visit(start);
  const sum = (keys: Iterable<string>) => [...keys].reduce((n, k) => n + (gz.get(k) ?? 0), 0);
  return { first: sum(seen), all: sum(gz.keys()) };
}

export async function benchFrameworksTokens(): Promise<void> {
  console.log(`\n## Agent frameworks: first-request tokens (o200k) over 8 servers × 60 tools`);
  const servers = await Promise.all(
    Array.from({ length: 8 }, (_, s) =>
      startToolServer(
        Array.from(
          { length: 60 },
          (_, i) => syntheticTool(i * 7 + s, `workspace ${s}`) as TestTool,
        ),
      )),
  );
  try {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    const named = servers.map((s, i) => ({ name: `server${i}`, url: s.url }));
    for (const server of named) await registry.add(server);
    const catalog = await createCatalog({
      resolver: createResolver({ sources: [createBuiltinSource()] }),
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
    });
    // Every tool as the MCP adapters list it: name, description, inputSchema of tools/list.
    const every: unknown[] = [];
    for (const server of named) {
      const client = await connect(server);
      for (const t of await client.listTools()) {
        every.push({ name: t.name, description: t.description, input_schema: t.inputSchema });
      }
      await client.close();
    }
    const all = await countTokens(JSON.stringify(every));
    const skills = catalog.entries.filter((e) => e.kind === "skill").length;
    console.log(
      `catalog: ${every.length} tools on 8 servers + ${skills} built-in skills; every tool: ${all} tokens`,
    );
    for (const request of REQUESTS) {
      const rows: Array<[string, number, number]> = [];
      for (const discovery of [false, true]) {
        const sm = await aiSdkTools({ catalog, request, discovery });
        const names = sm.prepareStep().activeTools;
        const tokens = await countTokens(sm.system) +
          await definitionsTokens(sm.tools, names);
        rows.push([discovery ? "skillmux discovery" : "skillmux selection", tokens, names.length]);
        await sm.close();
      }
      console.log(`request: "${request}"`);
      console.log(
        `  ${"every tool (@ai-sdk/mcp, LangChain MCP adapters)".padEnd(52)} ${
          String(all).padStart(7)
        } tokens  ${every.length} tools`,
      );
      for (const [label, tokens, n] of rows) {
        console.log(
          `  ${label.padEnd(52)} ${String(tokens).padStart(7)} tokens  ${n} tools  (${
            (100 * tokens / all).toFixed(1)
          } %)`,
        );
      }
    }
    catalog.dispose();
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
  console.log(`\n## Entry sizes (esbuild --minify, ESM, gzip -9; ai and @langchain/* external)`);
  for (
    const [name, file] of [
      ["./ai-sdk", "lib/frameworks/ai_sdk.ts"],
      ["./langchain", "lib/frameworks/langchain.ts"],
    ]
  ) {
    const whole = await entrySize(file, false);
    const own = await entrySize(file, true);
    const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(
      `${name.padEnd(14)} first load ${kib(whole.first)}, all chunks ${kib(whole.all)}; ` +
        `the adapter's own code ${kib(own.all)}`,
    );
  }
}

if (isMain(import.meta)) await benchFrameworksTokens();
