// A cold catalog build's round trips to each server (issue 27), against real SDK servers on
// 127.0.0.1 behind a gate that holds requests: every server gets initialize,
// notifications/initialized, tools/list, resources/list and resources/templates/list (5
// requests, nothing else); the three listings leave together right after initialize, without
// waiting for the notification's answer (2 round trips on the critical path); and the servers
// are asked before the skills are listed, so the listing's work overlaps their answers.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import {
  createCatalog,
  createMemoryStorage,
  createResolver,
  createServerRegistry,
  type SkillSource,
} from "../../../lib/mod.ts";
import { listenLocal, type SdkServer, startSdkServer } from "../../mcp/_servers.ts";

const LISTINGS = ["tools/list", "resources/list", "resources/templates/list"];
const WAIT_MS = 3_000;

/** A proxy to `target` that forwards each request once `hold(rpc)` settles. */
async function gate(target: string, hold: (rpc: string) => Promise<void>) {
  const upstream = new URL(target);
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let rpc = req.method ?? "";
    try {
      rpc = JSON.parse(body.toString()).method ?? "(response)";
    } catch { /* the HTTP method names it */ }
    await hold(rpc);
    const answer = await fetch(new URL(req.url ?? "/", upstream), {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([k]) =>
          !["host", "content-length", "connection"].includes(k)
        ),
      ) as Record<string, string>,
      body: req.method === "POST" ? body : undefined,
    });
    const headers: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== "content-length" && k !== "transfer-encoding") headers[k] = v;
    });
    res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
  });
  const listening = await listenLocal(server);
  return { url: `http://127.0.0.1:${listening.port}${upstream.pathname}`, close: listening.close };
}

/** Resolves when `cond()` holds (checked on `poke`), or after WAIT_MS with `false`. */
function until(cond: () => boolean, pokes: Set<() => void>): Promise<boolean> {
  return new Promise((resolve) => {
    if (cond()) return resolve(true);
    const timer = setTimeout(() => (pokes.delete(check), resolve(false)), WAIT_MS);
    const check = () => {
      if (!cond()) return;
      clearTimeout(timer);
      pokes.delete(check);
      resolve(true);
    };
    pokes.add(check);
  });
}

describe("a cold catalog build's round trips", () => {
  const seen: string[][] = [];
  const late: string[] = [];
  const pokes = new Set<() => void>();
  let servers: SdkServer[] = [];
  let gates: Array<{ url: string; close(): Promise<void> }> = [];

  before(async () => {
    servers = await Promise.all([0, 1, 2].map(() => startSdkServer({ json: true, tools: 2 })));
    gates = await Promise.all(servers.map((s, i) => {
      seen.push([]);
      return gate(s.url, async (rpc) => {
        seen[i].push(rpc);
        for (const poke of [...pokes]) poke();
        // The notification's answer waits for the three listings, and each listing for the
        // others: a client that awaited the notification, or listed one after another, stalls.
        if (rpc === "notifications/initialized" || LISTINGS.includes(rpc)) {
          const ok = await until(() => LISTINGS.every((l) => seen[i].includes(l)), pokes);
          if (!ok) late.push(`s${i} ${rpc}`);
        }
      });
    }));
  });
  after(async () => {
    await Promise.all([...gates, ...servers].map((s) => s.close()));
  });

  test("5 requests per server, the listings together without awaiting the notification, before the skills", async () => {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    for (const [i, g] of gates.entries()) await registry.add({ name: `s${i}`, url: g.url });
    for (const s of seen) s.length = 0;
    let askedFirst: boolean | undefined;
    const skills: SkillSource = {
      label: "user",
      get: () => Promise.resolve(undefined),
      // Listing the skills waits for the servers' first requests: if they were asked after the
      // skills were listed, this would wait WAIT_MS and say so.
      list: async () => {
        askedFirst = await until(() => seen.every((s) => s.includes("initialize")), pokes);
        return [];
      },
    };
    const catalog = await createCatalog({
      resolver: createResolver({ sources: [skills] }),
      registry,
      approvals: { storage: createMemoryStorage(), remote: "auto" },
      follow: false,
      discoveryMaxAgeMs: 0,
    });
    assert.equal(askedFirst, true, "the servers were asked before the skills were listed");
    assert.deepEqual(late, [], "no request waited for another's answer");
    for (const s of seen) {
      assert.deepEqual(
        [...s].sort(),
        [
          "initialize",
          "notifications/initialized",
          ...LISTINGS,
        ].sort(),
      );
      assert.equal(s[0], "initialize");
    }
    assert.equal(catalog.entries.filter((e) => e.kind === "tool").length, 3 * 4);
    catalog.dispose();
  });
});
