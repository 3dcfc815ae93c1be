// Downloads of community install that no test held under mutation: redirects followed (relative
// Location, at most five hops), 410 as not found, the URL in messages shown without its
// query, and an answer that spells out `Content-Encoding: identity` accepted. Through the public
// "./install" entry against a real registry on 127.0.0.1 (./_registry.ts).
import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import {
  fetchRegistryIndex,
  type InstallError,
  isInstallError,
  registryIndexUrl,
} from "../../lib/install/mod.ts";
import { startRegistry, type TestRegistry } from "./_registry.ts";

let registry: TestRegistry;
before(async () => {
  registry = await startRegistry();
});
after(async () => {
  await registry.close();
});
beforeEach(() => {
  registry.files.clear();
  registry.requests.length = 0;
});

const INDEX = JSON.stringify({ skills: [] });

/** The InstallError `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<InstallError> {
  const error = await promise.then(() => undefined, (e) => e);
  assert.ok(isInstallError(error), `not an InstallError: ${error}`);
  return error as InstallError;
}

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
