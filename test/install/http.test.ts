// Downloads of community install (lib/install/_http.ts through the public "./install" entry,
// against a real registry on 127.0.0.1, ./_registry.ts): redirects (relative Location, at most
// five hops, each checked by the URL policy), statuses (404 and 410 not found, others http
// errors), the caller's fetch, timeout, retries and signal, the size caps (a file of exactly
// maxFileBytes, the 8 MiB index), encodings, and URLs shown without their query. Over 300 lines:
// every answer a download can get is one behaviour.
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { test } from "node:test";
import {
  fetchRegistryIndex,
  type InstallError,
  installSkills,
  isInstallError,
  registryIndexUrl,
} from "../../lib/install/mod.ts";
import {
  failure,
  hugeBody,
  publish,
  setIndex,
  skillText,
  type TestRegistry,
  useRegistry,
} from "./_registry.ts";
import { deadUrl } from "../_closed_port.ts";

let registry: TestRegistry;
let dir: string;
const options = () => ({ registry: registry.url, communityDir: dir, retries: 0 });
useRegistry("skillmux-http-", (r, d) => {
  registry = r;
  dir = d;
});

const INDEX = JSON.stringify({ skills: [] });

/** Serve `x/index.json` as `n` redirects (absolute paths, one relative) ending at the index. */
function redirects(n: number) {
  registry.files.set("index.json", INDEX);
  for (let i = 0; i < n; i++) {
    const from = i === 0 ? "x/index.json" : `h${i}`;
    const to = i + 1 === n ? "/index.json" : i === 0 ? "../h1" : `/h${i + 1}`;
    registry.files.set(
      from,
      (_req, res) => res.writeHead(i % 2 ? 307 : 302, { location: to }).end(),
    );
  }
}

test("redirects are followed, relative to the hop that gave them, up to five", async () => {
  redirects(1);
  const one = await fetchRegistryIndex({ registry: `${registry.url}x/`, retries: 0 });
  assert.equal(one.skills.size, 0);
  assert.deepEqual(registry.requests, ["x/index.json", "index.json"]);
  registry.requests.length = 0;
  redirects(5);
  assert.equal(
    (await fetchRegistryIndex({ registry: `${registry.url}x/`, retries: 0 })).skills.size,
    0,
  );
  assert.deepEqual(registry.requests, ["x/index.json", "h1", "h2", "h3", "h4", "index.json"]);
  redirects(6);
  const error = await failure(fetchRegistryIndex({ registry: `${registry.url}x/`, retries: 0 }));
  assert.equal(error.code, "http");
  assert.match(error.message, /x\/index\.json: too many redirects$/);
});

test("a 410 is not found; other statuses are http errors; the URL shows no query", async () => {
  const base = new URL(registry.url);
  const secret = `http://${base.host}/s/`;
  for (const [status, code] of [[410, "not-found"], [403, "http"]] as const) {
    registry.files.set("s/index.json", (_req, res) => res.writeHead(status).end());
    const error = await failure(
      fetchRegistryIndex({ registry: `${secret}index.json?token=t`, retries: 0 }),
    );
    assert.equal(error.code, code);
    assert.match(error.message, new RegExp(`answered HTTP ${status}`));
    assert.ok(error.message.includes(`http://${base.host}/s/index.json`), error.message);
    assert.ok(!/token/.test(error.message), error.message);
  }
  assert.equal(registryIndexUrl(secret).pathname, "/s/index.json");
});

test("an answer that says Content-Encoding identity (any case, padded) is read", async () => {
  for (const coding of ["identity", " Identity "]) {
    registry.files.set("index.json", (_req, res) => {
      res.writeHead(200, { "content-encoding": coding, "content-type": "application/json" });
      res.end(INDEX);
    });
    const index = await fetchRegistryIndex({ registry: registry.url, retries: 0 });
    assert.equal(index.skills.size, 0, coding);
  }
});

test("the caller's fetch, timeout and retry count are used; a GET asks for JSON or markdown", async () => {
  let status = 503;
  const accepted: string[] = [];
  registry.files.set("index.json", (req, res) => {
    accepted.push(String(req.headers.accept));
    res.writeHead(status).end(status === 200 ? INDEX : "busy");
  });
  const count = async (retries?: number) => {
    registry.requests.length = 0;
    const error = await failure(fetchRegistryIndex({ registry: registry.url, retries }));
    assert.deepEqual([error.code, error.status], ["http", 503]);
    return registry.requests.length;
  };
  assert.deepEqual([await count(0), await count(1), await count()], [1, 2, 3]);
  assert.deepEqual(new Set(accepted), new Set(["application/json, text/markdown, */*"]));

  status = 200;
  const seen: string[] = [];
  const fetcher: typeof fetch = (input, init) => {
    seen.push(input instanceof Request ? input.url : String(input));
    return fetch(input, init);
  };
  await fetchRegistryIndex({ registry: registry.url, retries: 0, fetch: fetcher });
  assert.deepEqual(seen, [`${registry.url}index.json`]);

  registry.files.set("index.json", () => {}); // never answers
  const started = Date.now();
  const slow = await failure(
    fetchRegistryIndex({ registry: registry.url, retries: 0, timeoutMs: 300 }),
  );
  assert.equal(slow.code, "network");
  assert.match(slow.message, /the request to http:\/\/127\.0\.0\.1:\d+\/index\.json timed out$/);
  assert.ok(Date.now() - started < 5_000, "gave up after timeoutMs, not the 15 s default");
});

test("the caller's signal cancels a request: its reason is thrown, not a network error", async () => {
  registry.files.set("index.json", () => {}); // never answers
  const controller = new AbortController();
  const reason = new Error("stopped by the caller");
  setTimeout(() => controller.abort(reason), 100);
  const started = Date.now();
  const error = await fetchRegistryIndex({
    registry: registry.url,
    retries: 0,
    signal: controller.signal,
  }).then(() => undefined, (e) => e);
  assert.equal(error, reason);
  assert.ok(Date.now() - started < 5_000, "cancelled at once, not at the timeout");
});

test("a refused connection is a network error naming the URL and the cause", async () => {
  const url = await deadUrl("/index.json");
  const error = await failure(fetchRegistryIndex({ registry: url, retries: 0 }));
  assert.equal(error.code, "network");
  assert.equal(
    error.message,
    `Cannot download the registry index: the request to ${url} failed (${
      (error.cause as Error).message
    })`,
  );
  assert.equal(error.url, url);
});

test("400 is an http error; 204 is an empty answer; a 3xx without Location is the answer", async () => {
  registry.files.set("index.json", (_req, res) => res.writeHead(400).end(INDEX));
  const bad = await failure(fetchRegistryIndex({ registry: registry.url, retries: 0 }));
  assert.deepEqual([bad.code, bad.status], ["http", 400]);

  registry.files.set("index.json", (_req, res) => res.writeHead(204).end());
  const empty = await failure(fetchRegistryIndex({ registry: registry.url, retries: 0 }));
  assert.equal(empty.code, "invalid-index");
  assert.match(empty.message, /is not valid JSON$/);

  for (const status of [200, 300]) {
    registry.files.set("index.json", (_req, res) => {
      res.writeHead(status, status === 300 ? {} : { location: "/elsewhere.json" }).end(INDEX);
    });
    registry.files.set("elsewhere.json", "{}");
    const index = await fetchRegistryIndex({ registry: registry.url, retries: 0 });
    assert.equal(index.skills.size, 0, String(status));
  }
  registry.files.set("index.json", (_req, res) => {
    res.writeHead(300, { location: "/elsewhere.json" }).end("{}");
  });
  registry.files.set("elsewhere.json", INDEX);
  assert.equal((await fetchRegistryIndex({ registry: registry.url, retries: 0 })).skills.size, 0);
});

test("a redirect is checked as a redirect: plain http off loopback is refused, naming the hop", async () => {
  registry.files.set("index.json", (_req, res) => {
    res.writeHead(302, { location: "http://registry.example.com/index.json?key=k" }).end();
  });
  const error = await failure(fetchRegistryIndex({ registry: registry.url, retries: 0 }));
  assert.equal(error.code, "policy");
  assert.equal(error.url, "http://registry.example.com/index.json");
  assert.match(
    error.message,
    /^Refusing http:\/\/registry\.example\.com\/index\.json: redirect \S+ uses plain http to a host that is not loopback/,
  );
  const first = await failure(
    fetchRegistryIndex({ registry: "http://registry.example.com/", retries: 0 }),
  );
  assert.match(
    first.message,
    /^Refusing http:\/\/registry\.example\.com\/index\.json: url \S+ uses plain http/,
  );
});

test("a host that cannot be resolved in strict mode is a network error, not a policy one", async () => {
  const error = await failure(fetchRegistryIndex({
    registry: "https://registry.test/",
    retries: 0,
    urlPolicy: {
      mode: "strict",
      lookup: () => Promise.reject(new Error("no DNS here")),
    },
  }));
  assert.equal(error.code, "network");
  assert.equal(
    error.message,
    'Refusing https://registry.test/index.json: cannot resolve host "registry.test"',
  );
});

test("a streamed body in pieces, of exactly the cap, is read whole", async () => {
  const body = JSON.stringify({ skills: [], pad: "x".repeat(1000) });
  registry.files.set("index.json", (_req, res) => {
    res.writeHead(200); // no Content-Length: chunked
    res.write(body.slice(0, 500));
    setTimeout(() => res.end(body.slice(500)), 50);
  });
  const size = new TextEncoder().encode(body).byteLength;
  const index = await fetchRegistryIndex({
    registry: registry.url,
    retries: 0,
    maxIndexBytes: size,
  });
  assert.deepEqual(index.problems, []);
  const over = await failure(
    fetchRegistryIndex({ registry: registry.url, retries: 0, maxIndexBytes: size - 1 }),
  );
  assert.equal(over.code, "too-large");
  assert.match(
    over.message,
    new RegExp(`is more than ${size - 1} bytes; the limit is ${size - 1} bytes$`),
  );
});

test("the index URL: a .json registry is the index; no registry, or not a URL, is a config error", async () => {
  assert.equal(
    registryIndexUrl("https://example.org/x/v2.json").href,
    "https://example.org/x/v2.json",
  );
  assert.equal(registryIndexUrl("https://example.org/x").href, "https://example.org/x/index.json");
  const none = await failure(fetchRegistryIndex({ registry: "" }));
  assert.deepEqual([none.code, none.message], [
    "config",
    "No skill registry is configured: pass --registry <url>, set SKILLMUX_REGISTRY, or add " +
    '[skills] registry = "https://…" to config.toml',
  ]);
  const bad = await failure(fetchRegistryIndex({ registry: "skills.example.org" }));
  assert.deepEqual([bad.code, bad.message], [
    "config",
    'The registry "skills.example.org" is not an absolute URL (expected https://host/path)',
  ]);
});

test("an index over 8 MiB is refused by default; refusals carry the URL", async () => {
  const url = `${registry.url}index.json`;
  registry.files.set("index.json", hugeBody(8 * 1024 * 1024 + 1, true));
  const big = await failure(fetchRegistryIndex({ registry: registry.url, retries: 0 }));
  assert.deepEqual([big.code, big.url, big.message], [
    "too-large",
    url,
    `Cannot download the registry index: ${url} is 8388609 bytes; the limit is 8388608 bytes`,
  ]);
  registry.files.set("index.json", (_req, res) => {
    res.writeHead(200, { "content-encoding": "gzip" }).end();
  });
  const zipped = await failure(fetchRegistryIndex({ registry: registry.url, retries: 0 }));
  assert.deepEqual([zipped.code, zipped.url], ["http", url]);
  assert.match(
    zipped.message,
    /a registry must serve its files uncompressed to a client that asks so\)$/,
  );
  redirects(6);
  const loop = await failure(fetchRegistryIndex({ registry: `${registry.url}x/`, retries: 0 }));
  assert.equal(loop.url, `${registry.url}x/index.json`);
  registry.files.set("index.json", (_req, res) => res.writeHead(403).end());
  const denied = await failure(fetchRegistryIndex({ registry: registry.url, retries: 0 }));
  assert.deepEqual([denied.url, denied.status], [url, 403]);
  assert.ok(denied.cause instanceof Error);
});

test("bodiless answers: a 304 with a Location is followed; a 204 claiming an encoding or a size is refused", async () => {
  registry.files.set("index.json", (_req, res) => {
    res.writeHead(304, { location: "/elsewhere.json" }).end();
  });
  registry.files.set("elsewhere.json", INDEX);
  assert.equal((await fetchRegistryIndex({ registry: registry.url, retries: 0 })).skills.size, 0);
  registry.files.set("index.json", (_req, res) => {
    res.writeHead(204, { "content-encoding": "gzip" }).end();
  });
  const error = await failure(fetchRegistryIndex({ registry: registry.url, retries: 0 }));
  assert.equal(error.code, "http");
  registry.files.set("index.json", (_req, res) => {
    res.writeHead(204, { "content-length": "99999999" }).end();
  });
  const sized = await failure(fetchRegistryIndex({ registry: registry.url, retries: 0 }));
  assert.equal(sized.code, "too-large");
});

test("a file of exactly maxFileBytes, declared in Content-Length, is accepted", async () => {
  const entry = await publish(registry, "kraken2", "1.0.0");
  setIndex(registry, [entry]);
  const size = new TextEncoder().encode(skillText("kraken2", "1.0.0")).byteLength;
  const result = await installSkills(["kraken2"], { ...options(), maxFileBytes: size });
  assert.deepEqual(result.changes.map((c) => c.action), ["install"]);
  // One byte less is refused, so the cap is really in force at this size.
  await rm(dirname(dir), { recursive: true, force: true });
  await assert.rejects(
    installSkills(["kraken2"], { ...options(), maxFileBytes: size - 1 }),
    (e: unknown) => isInstallError(e) && (e as InstallError).code === "too-large",
  );
});
