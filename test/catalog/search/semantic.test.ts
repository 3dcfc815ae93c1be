// The optional semantic stage against loopback stubs of both protocols: OpenAI-compatible
// /v1/embeddings (a toy model: hashed bag of words with a small table of related words, so that
// fusion has something to add), /rerank as TEI speaks it and as Cohere/Jina do; reciprocal rank
// fusion, vectors cached per entry text in memory and in a storage, batching, keyword-only with a
// diagnostic when an endpoint fails, times out or answers the wrong shape, and cancellation.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { createCatalog, createMemoryStorage } from "../../../lib/mod.ts";
import { createSemanticRanker } from "../../../lib/catalog/mod.ts";
import { createEmbeddingEndpoint, createRerankEndpoint } from "../../../lib/catalog/llm/llm.ts";

/** The stub's toy model: words folded by a small table, hashed into 64 dimensions. */
const RELATED: Record<string, string> = { rain: "weather", umbrella: "weather", mail: "email" };
const words = (t: string) => (t.toLowerCase().match(/[a-z]+/g) ?? []).map((w) => RELATED[w] ?? w);
function toy(text: string): number[] {
  const v = new Array(64).fill(0);
  for (const w of words(text)) {
    let h = 2166136261;
    for (const c of w) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    v[(h >>> 0) % 64] += 1;
  }
  return v;
}
const overlap = (q: string, d: string) => words(d).filter((w) => words(q).includes(w)).length;

const batches: number[] = [];
let server: ReturnType<typeof createServer>;
let base = "";
const read = (req: IncomingMessage) =>
  new Promise<Record<string, unknown>>((resolve) => {
    let body = "";
    req.on("data", (c) => (body += c)).on("end", () => resolve(JSON.parse(body || "{}")));
  });
const send = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

before(async () => {
  server = createServer(async (req, res) => {
    const body = await read(req);
    if (req.url === "/v1/embeddings") {
      const input = body.input as string[];
      batches.push(input.length);
      // Answered in reverse order: the index says which vector is whose.
      return send(res, 200, {
        data: input.map((t, index) => ({ index, embedding: toy(t) })).reverse(),
      });
    }
    if (req.url === "/rerank") {
      const texts = body.texts as string[];
      const rows = texts.map((t, index) => ({ index, score: overlap(String(body.query), t) }));
      return send(res, 200, rows.sort((a, b) => b.score - a.score));
    }
    if (req.url === "/v1/rerank") {
      const docs = body.documents as string[];
      return send(res, 200, {
        results: docs.map((d, index) => ({ index, relevance_score: -d.length })),
      });
    }
    if (req.url === "/bad") return send(res, 200, { data: "nope" });
    if (req.url === "/slow") return setTimeout(() => send(res, 200, {}), 1_500);
    send(res, 500, { error: { message: "model not loaded" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const functions = [
  { name: "get_weather", description: "Weather forecast for a city", handler: () => "sunny" },
  { name: "send_email", description: "Send an email to a colleague", handler: () => "sent" },
  { name: "book_flight", description: "Book a flight between two cities", handler: () => "ok" },
  { name: "convert_units", description: "Convert between metric units", handler: () => 1 },
  { name: "stock_price", description: "Latest price of a stock ticker", handler: () => 1 },
];
const embedder = () => createEmbeddingEndpoint({ url: `${base}/v1/embeddings`, model: "toy" });

describe("fusion", () => {
  test("vectors find what the keywords miss; scores are reciprocal rank fusion", async () => {
    const catalog = await createCatalog({ functions });
    const ranker = createSemanticRanker(catalog, { embed: embedder(), model: "toy", k: 60 });
    // No entry holds "rain": the keyword ranking has nothing; the toy model relates it to weather.
    assert.deepEqual(catalog.rank("will it rain in Paris tomorrow?"), []);
    const { hits, mode, diagnostics } = await ranker.rank("will it rain in Paris tomorrow?");
    assert.equal(mode, "fused");
    assert.deepEqual(diagnostics, []);
    assert.equal(hits[0].entry.id, "get_weather");
    assert.equal(hits[0].evidence, 0, "found by the vectors only: no keyword evidence");
    assert.equal(hits[0].keywordRank, undefined);
    assert.ok(Math.abs(hits[0].score - 1 / 61) < 1e-12, "first by vector, absent by keywords");
    // Found by both: 1/(k + keyword rank) + 1/(k + vector rank).
    const both = await ranker.rank("send an email");
    assert.equal(both.hits[0].entry.id, "send_email");
    assert.equal(both.hits[0].keywordRank, 1);
    assert.ok(Math.abs(both.hits[0].score - 2 / 61) < 1e-12);
    assert.ok(both.hits[0].similarity! > 0.5);
    catalog.dispose();
  });

  test("vectors are embedded once per entry text, in batches, and kept in a storage", async () => {
    const catalog = await createCatalog({ functions });
    // In memory: the second call embeds only its query.
    const memory = createSemanticRanker(catalog, { embed: embedder(), model: "toy" });
    batches.length = 0;
    await memory.rank("email a colleague");
    await memory.rank("book a flight");
    assert.deepEqual(batches, [5, 1, 1]);
    const storage = createMemoryStorage();
    batches.length = 0;
    const ranker = createSemanticRanker(catalog, {
      embed: embedder(),
      model: "toy",
      storage,
      batchSize: 2,
    });
    await ranker.rank("email a colleague");
    assert.deepEqual(batches, [2, 2, 1, 1], "five entries in batches of two, then the query");
    await ranker.rank("book a flight");
    assert.deepEqual(batches.slice(4), [1], "only the query");
    assert.equal((await storage.keys("embedding/")).length, 5);
    // A new process (a new ranker) with the same storage embeds only the query.
    await createSemanticRanker(catalog, { embed: embedder(), model: "toy", storage })
      .rank("stock price");
    assert.deepEqual(batches.slice(5), [1]);
    // Another model's vectors are its own.
    await createSemanticRanker(catalog, { embed: embedder(), model: "other", storage })
      .rank("stock price");
    assert.deepEqual(batches.slice(6), [5, 1]);
    catalog.dispose();
  });
});

describe("failures fall back to the keyword ranking, with a diagnostic", () => {
  const cases: Array<[string, string, RegExp]> = [
    ["an endpoint answering 500", "/fail", /HTTP 500: model not loaded/],
    ["an answer of the wrong shape", "/bad", /expected "data" with \d+ vectors/],
    ["an endpoint that does not answer in time", "/slow", /did not answer within 200 ms/],
  ];
  for (const [what, path, message] of cases) {
    test(what, async () => {
      const catalog = await createCatalog({ functions });
      const embed = createEmbeddingEndpoint({ url: base + path, timeoutMs: 200, retries: 0 });
      const { hits, mode, diagnostics } = await createSemanticRanker(catalog, { embed })
        .rank("send an email");
      assert.equal(mode, "keyword");
      assert.match(diagnostics[0], message);
      assert.match(diagnostics[0], /ranked by keywords alone/);
      assert.deepEqual(
        hits.map((h) => h.entry.id),
        catalog.rank("send an email").map((r) => r.entry.id),
      );
      catalog.dispose();
    });
  }

  test("a cancelled call rejects with the signal's reason", async () => {
    const catalog = await createCatalog({ functions });
    const embed = createEmbeddingEndpoint({ url: `${base}/slow`, timeoutMs: 5_000 });
    const controller = new AbortController();
    const call = createSemanticRanker(catalog, { embed }).rank("email", {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("user left")), 50);
    await assert.rejects(call, /user left/);
    catalog.dispose();
  });
});

describe("reranking", () => {
  test("TEI's /rerank orders the best fused hits", async () => {
    const catalog = await createCatalog({ functions });
    const rerank = createRerankEndpoint({ url: `${base}/rerank` });
    const { hits, mode } = await createSemanticRanker(catalog, { embed: embedder(), rerank })
      .rank("price of a flight");
    assert.equal(mode, "reranked");
    const scores = hits.map((h) => h.rerankScore!);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), "by the reranker's scores");
    assert.ok(scores[0] >= 2);
    catalog.dispose();
  });

  test("Cohere's format (Jina's too): results with relevance_score", async () => {
    const catalog = await createCatalog({ functions });
    const rerank = createRerankEndpoint({ url: `${base}/v1/rerank`, protocol: "cohere" });
    const { hits, mode } = await createSemanticRanker(catalog, { embed: embedder(), rerank })
      .rank("price of a flight");
    assert.equal(mode, "reranked");
    // The stub scores shorter texts higher.
    const lengths = hits.map((h) => -h.rerankScore!);
    assert.deepEqual(lengths, [...lengths].sort((a, b) => a - b));
    catalog.dispose();
  });

  test("a failing reranker leaves the fused ranking, with a diagnostic", async () => {
    const catalog = await createCatalog({ functions });
    const rerank = createRerankEndpoint({ url: `${base}/fail`, retries: 0 });
    const ranker = createSemanticRanker(catalog, { embed: embedder(), rerank });
    const { hits, mode, diagnostics } = await ranker.rank("price of a flight");
    assert.equal(mode, "fused");
    assert.match(diagnostics[0], /reranking failed .*HTTP 500.*ranked by the fused ranking/);
    const fused = await createSemanticRanker(catalog, { embed: embedder() })
      .rank("price of a flight");
    assert.deepEqual(hits.map((h) => h.entry.id), fused.hits.map((h) => h.entry.id));
    catalog.dispose();
  });
});
