// npm start's static site and build stamp (scripts/_site.ts) on real files in a temporary
// folder: gzip when the browser accepts it, plain bytes otherwise; the stamp matches until a
// source of playground/ or lib/ changes, and a missing index.html means "build again".
import assert from "node:assert/strict";
import { createServer, request } from "node:http";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { builtFrom, sourceDigest, stamp, staticFiles } from "../scripts/_site.ts";

function get(url: string, headers: Record<string, string>) {
  return new Promise<{ encoding?: string; type?: string; body: Buffer }>((done, fail) => {
    request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        done({
          encoding: res.headers["content-encoding"],
          type: res.headers["content-type"],
          body: Buffer.concat(chunks),
        }));
    }).on("error", fail).end();
  });
}

describe("npm start's site", () => {
  test("text files go gzip-compressed when accepted, plain otherwise", async () => {
    const root = await mkdtemp(join(tmpdir(), "skillmux-site-"));
    const js = "export const x = 1;\n".repeat(500);
    await writeFile(join(root, "index.html"), "<!doctype html><p>hi</p>");
    await writeFile(join(root, "app.js"), js);
    const server = createServer(staticFiles(root));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const zipped = await get(`${base}/app.js`, { "accept-encoding": "gzip, deflate, br" });
      assert.equal(zipped.encoding, "gzip");
      assert.equal(gunzipSync(zipped.body).toString(), js);
      assert.ok(zipped.body.length < js.length / 10, `${zipped.body.length} bytes`);
      const plain = await get(`${base}/app.js`, {});
      assert.equal(plain.encoding, undefined);
      assert.equal(plain.body.toString(), js);
      const fallback = await get(`${base}/servers`, { "accept-encoding": "gzip" });
      assert.match(String(fallback.type), /text\/html/);
      assert.equal(gunzipSync(fallback.body).toString(), "<!doctype html><p>hi</p>");
      const escape = await get(`${base}/../../etc/passwd`, {});
      assert.equal(escape.body.toString(), "<!doctype html><p>hi</p>");
    } finally {
      server.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  test("the build stamp holds until a source changes or the output goes", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "skillmux-stamp-"));
    const dist = join(cwd, "playground", "dist");
    try {
      await mkdir(join(cwd, "playground", "src"), { recursive: true });
      await mkdir(join(cwd, "lib"), { recursive: true });
      await mkdir(dist);
      await writeFile(join(cwd, "playground", "src", "App.svelte"), "<p>one</p>");
      await writeFile(join(cwd, "lib", "mod.ts"), "export {};");
      await writeFile(join(dist, "index.html"), "<p>built</p>");
      const first = await sourceDigest(cwd);
      assert.equal(await builtFrom(dist, first), false, "no stamp yet: build");
      await stamp(dist, first);
      assert.equal(await builtFrom(dist, first), true);
      // The output itself does not count: a build that writes dist/ keeps the digest.
      await writeFile(join(dist, "assets.js"), "new");
      assert.equal(await sourceDigest(cwd), first);
      await writeFile(join(cwd, "lib", "mod.ts"), "export const changed = 1;");
      const second = await sourceDigest(cwd);
      assert.notEqual(second, first);
      assert.equal(await builtFrom(dist, second), false, "lib/ changed: build");
      await stamp(dist, second);
      await writeFile(join(cwd, "playground", "vite.config.ts"), "export default {};");
      assert.notEqual(await sourceDigest(cwd), second, "a new playground file: build");
      await rm(join(dist, "index.html"));
      assert.equal(await builtFrom(dist, second), false, "no index.html: build");
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
