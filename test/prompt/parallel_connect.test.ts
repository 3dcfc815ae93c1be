// assemblePrompt connects the selected tools' servers at once (issue 27): three real tool
// servers behind a gate that answers no `initialize` until all three have arrived (or 5 s have
// passed). Connected one after another, only one initialize would ever be waiting.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { createCatalog } from "../../lib/catalog/build/catalog.ts";
import type { Selection } from "../../lib/catalog/model/select_types.ts";
import { createServerRegistry } from "../../lib/mcp/registry/registry.ts";
import { assemblePrompt } from "../../lib/prompt/assemble.ts";
import { createMemoryStorage } from "../../lib/storage/memory.ts";
import { startToolServer } from "../catalog/_servers.ts";
import { listenLocal } from "../mcp/_servers.ts";

const SERVERS = 3;
type ToolServer = Awaited<ReturnType<typeof startToolServer>>;
let servers: ToolServer[] = [];
let gate: { url: string; close(): Promise<void> };
let waiting: Array<() => void> = [];
let gating = false;
let mostWaiting = 0;

before(async () => {
  servers = await Promise.all(
    Array.from({ length: SERVERS }, (_, i) =>
      startToolServer([{
        name: `tool${i}`,
        description: `Tool number ${i}`,
        inputSchema: { type: "object" },
      }])),
  );
  // One proxy in front of all three (/0, /1, /2): an initialize waits while the gate is shut.
  const proxy = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const [, index] = /^\/(\d+)/.exec(req.url ?? "") ?? [];
    if (gating && body.toString().includes('"initialize"')) {
      await new Promise<void>((release) => {
        waiting.push(release);
        mostWaiting = Math.max(mostWaiting, waiting.length);
        const timer = setTimeout(release, 5_000);
        if (waiting.length === SERVERS) {
          for (const go of waiting) go();
          waiting = [];
        }
        req.once("close", () => clearTimeout(timer));
      });
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) =>
        !["host", "content-length", "connection"].includes(k)
      ),
    ) as Record<string, string>;
    const answer = await fetch(servers[Number(index)].url, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== "content-length" && k !== "transfer-encoding") out[k] = v;
    });
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  const listening = await listenLocal(proxy);
  gate = { url: `http://127.0.0.1:${listening.port}`, close: listening.close };
});
after(async () => {
  await gate.close();
  await Promise.all(servers.map((s) => s.close()));
});

test("the selected tools' servers are connected in parallel", async () => {
  const registry = createServerRegistry({ storage: createMemoryStorage() });
  for (let i = 0; i < SERVERS; i++) await registry.add({ name: `s${i}`, url: `${gate.url}/${i}` });
  const catalog = await createCatalog({
    registry,
    approvals: { storage: createMemoryStorage(), remote: "first-sight" },
    follow: false,
  });
  const ids = Array.from({ length: SERVERS }, (_, i) => `s${i}__tool${i}`);
  assert.deepEqual(ids.map((id) => catalog.get(id)?.kind), ["tool", "tool", "tool"]);
  const selection: Selection = {
    via: "llm",
    complexity: "simple",
    skills: [],
    tools: ids,
    needsExternal: false,
    reasoning: "",
    diagnostics: [],
  };
  gating = true;
  const prompt = await assemblePrompt({ request: "use the tools", selection, catalog });
  gating = false;
  await prompt.session.close();
  assert.deepEqual(prompt.loaded.tools.map((t) => t.connected), [true, true, true]);
  assert.equal(mostWaiting, SERVERS, "all three initialize requests were in flight at once");
  catalog.dispose();
});
