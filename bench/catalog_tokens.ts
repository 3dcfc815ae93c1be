// Tokens (o200k) of the compact catalog next to what it replaces, side by side in one run:
// the raw `tools/list` JSON of every server plus the full text of every skill.
//  - server-everything (live) + the built-in skills;
//  - 8 SDK servers × 20 tools each (synthetic tools shaped like popular servers' tools).
// Target (issue 7): compact <= 10 % of raw.

import {
  connect,
  createBuiltinSource,
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
} from "../lib/mod.ts";
import { countTokens } from "../lib/catalog/mod.ts";
import { builtinSkillNames } from "../lib/resolve/mod.ts";
import { startEverything } from "../test/mcp/_servers.ts";
import { startToolServer, type TestTool } from "../test/catalog/_servers.ts";
import { syntheticTool } from "./_synthetic.ts";
import { isMain } from "./_main.ts";

const approvals = () => ({ storage: createMemoryStorage(), remote: "auto" as const });

async function rawToolsJson(servers: Array<{ name: string; url: string }>): Promise<string> {
  const parts: string[] = [];
  for (const server of servers) {
    const client = await connect(server);
    parts.push(JSON.stringify({ tools: await client.listTools() }));
    await client.close();
  }
  return parts.join("\n");
}

function row(label: string, compact: number, raw: number): string {
  return `${label.padEnd(44)} compact ${String(compact).padStart(6)}  raw ${
    String(raw).padStart(7)
  }  ${(100 * compact / raw).toFixed(1)} %`;
}

export async function benchCatalogTokens(): Promise<void> {
  console.log(`\n## Catalog tokens (o200k): compact rendering vs raw tools/list JSON + skill text`);
  const everything = await startEverything("streamableHttp");
  try {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    await registry.add({ name: "everything", url: everything.url });
    const resolver = createResolver({ sources: [createBuiltinSource()] });
    const catalog = await createCatalog({ resolver, registry, approvals: approvals() });
    const compact = await catalog.render();
    const tools = await rawToolsJson([{ name: "everything", url: everything.url }]);
    const skills = await Promise.all(
      (await builtinSkillNames()).map(async (n) => (await resolver.resolve(n)).skill.body),
    );
    const rawTools = await countTokens(tools);
    const rawSkills = await countTokens(skills.join("\n"));
    console.log(row(
      `server-everything + ${skills.length} built-in skills (${catalog.entries.length})`,
      compact.tokens,
      rawTools + rawSkills,
    ));
    const toolsOnly = await (await createCatalog({ registry, approvals: approvals() })).render();
    console.log(row("  of which server-everything's tools alone", toolsOnly.tokens, rawTools));
    catalog.dispose();
  } finally {
    await everything.close();
  }

  const servers = await Promise.all(
    Array.from({ length: 8 }, (_, s) =>
      startToolServer(
        Array.from(
          { length: 20 },
          (_, i) => syntheticTool(i * 7 + s, `workspace ${s}`) as TestTool,
        ),
      )),
  );
  try {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    const named = servers.map((s, i) => ({ name: `server${i}`, url: s.url }));
    for (const server of named) await registry.add(server);
    const catalog = await createCatalog({ registry, approvals: approvals() });
    const compact = await catalog.render();
    const raw = await countTokens(await rawToolsJson(named));
    console.log(row(`8 servers × 20 tools (${catalog.entries.length})`, compact.tokens, raw));
    catalog.dispose();
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

if (isMain(import.meta)) await benchCatalogTokens();
