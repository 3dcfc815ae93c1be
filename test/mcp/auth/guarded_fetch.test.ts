// The fetch every OAuth request goes through (lib/mcp/auth/_guarded_fetch.ts): redirects followed
// hop by hop up to five, each hop checked, none followed when the caller asked for manual handling,
// a Request sent as it is, the byte cap by Content-Length and while streaming, bodiless statuses.
// Against a server on 127.0.0.1; the browser's opaque redirect (which no Node server can produce)
// through a stand-in fetch.
// Folded from oauth_guard_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import { guardFetch } from "../../../lib/mcp/auth/_guarded_fetch.ts";
import { listenLocal } from "../_servers.ts";

/** Routes: /hop/N redirects to /hop/N-1 (/hop/0 to /final), /away to a non-loopback http URL,
 * /status/N answers N with a Location, /slow ends after 5 s, /echo answers the method and body,
 * /empty 204, /big 2,000 bytes with or without a length. */
async function withRoutes(fn: (base: string, seen: string[]) => Promise<void>): Promise<void> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const path = req.url ?? "";
      seen.push(`${req.method} ${path}`);
      const hop = /^\/hop\/(\d+)$/.exec(path);
      if (hop) {
        const n = Number(hop[1]);
        res.writeHead(302, { location: n === 0 ? "/final" : `/hop/${n - 1}` }).end("moved");
      } else if (path === "/away") {
        res.writeHead(301, { location: "http://example.com/final" }).end();
      } else if (path === "/echo") {
        res.writeHead(200, { "x-seen": req.headers["x-token"] ?? "" }).end(`${req.method} ${body}`);
      } else if (path === "/bare-300") {
        res.writeHead(300).end("choices"); // a 3xx without a Location is no redirect
      } else if (/^\/status\/\d+$/.test(path)) {
        // That status, with a Location: only a 3xx one is a redirect.
        res.writeHead(Number(path.slice(8)), { location: "/final" }).end(`status ${path.slice(8)}`);
      } else if (path === "/slow") {
        res.writeHead(200);
        res.write("first part;");
        const timer = setTimeout(() => res.end("second part"), 5_000);
        res.on("close", () => clearTimeout(timer));
      } else if (path === "/empty") {
        res.writeHead(204).end();
      } else if (path === "/big") {
        res.writeHead(200, { "content-length": "2000" }).end("x".repeat(2000));
      } else if (path === "/big-chunked") {
        res.writeHead(200);
        for (let i = 0; i < 20; i++) res.write("x".repeat(100));
        res.end();
      } else {
        res.writeHead(200).end("final");
      }
    });
  });
  const listening = await listenLocal(server);
  try {
    await fn(`http://127.0.0.1:${listening.port}`, seen);
  } finally {
    await listening.close();
  }
}

/** The error `promise` rejects with. */
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e) => e);

describe("redirects", () => {
  test("five hops are followed, each checked; the sixth is refused", async () => {
    await withRoutes(async (base, seen) => {
      const checked: string[] = [];
      const guarded = guardFetch(fetch, {
        server: "docs",
        check: (url) => Promise.resolve(void checked.push(url.pathname)),
      });
      const five = await guarded(`${base}/hop/4`);
      assert.equal(await five.text(), "final");
      assert.deepEqual(checked, ["/hop/4", "/hop/3", "/hop/2", "/hop/1", "/hop/0", "/final"]);
      seen.length = 0;
      const error = await failure(guarded(`${base}/hop/5`));
      assert.equal(error?.code, "metadata_not_found");
      assert.equal(error.message, `docs: ${base}/hop/0 redirects more than 5 times`);
      assert.equal(error.server, "docs");
      assert.equal(seen.includes("GET /final"), false, "the sixth hop is not taken");
      const anonymous = await failure(guardFetch(fetch)(`${base}/hop/5`));
      assert.equal(
        anonymous.message,
        `${new URL(base).host}: ${base}/hop/0 redirects more than 5 times`,
      );
    });
  });

  test("the caller's check refuses a hop before anything is sent to it", async () => {
    await withRoutes(async (base, seen) => {
      const guarded = guardFetch(fetch, {
        check: (url) =>
          url.pathname === "/hop/0" ? Promise.reject(new Error("policy: no")) : Promise.resolve(),
      });
      assert.equal((await failure(guarded(`${base}/hop/1`)))?.message, "policy: no");
      assert.deepEqual(seen, ["GET /hop/1"]);
    });
  });

  test("the first URL and each redirect must be https or loopback http, named as which", async () => {
    await withRoutes(async (base, seen) => {
      const guarded = guardFetch(fetch, { server: "docs" });
      const away = await failure(guarded(`${base}/away`));
      assert.equal(away?.code, "insecure_url");
      assert.match(away.message, /^docs: refused the redirect to "http:\/\/example\.com\/final": /);
      const first = await failure(guarded("http://example.com/meta"));
      assert.match(first.message, /^docs: refused the URL "http:\/\/example\.com\/meta": /);
      assert.deepEqual(seen, ["GET /away"]);
    });
  });

  test("redirect: manual or error hands the redirect back unfollowed", async () => {
    await withRoutes(async (base, seen) => {
      const guarded = guardFetch(fetch);
      for (const redirect of ["manual", "error"] as const) {
        const response = await guarded(`${base}/hop/0`, { redirect });
        assert.equal(response.status, 302, redirect);
        assert.equal(response.headers.get("location"), "/final");
      }
      const followed = await guarded(`${base}/hop/0`, { redirect: "follow" });
      assert.equal(await followed.text(), "final");
      assert.deepEqual(seen, ["GET /hop/0", "GET /hop/0", "GET /hop/0", "GET /final"]);
    });
  });

  test("only a 3xx with a Location is followed; HEAD redirects too", async () => {
    await withRoutes(async (base) => {
      const guarded = guardFetch(fetch);
      for (const [status, followed] of [[300, true], [399, true], [201, false], [400, false]]) {
        const response = await guarded(`${base}/status/${status}`);
        assert.equal(await response.text(), followed ? "final" : `status ${status}`, `${status}`);
      }
      assert.equal(await (await guarded(`${base}/bare-300`)).text(), "choices");
      const head = await guarded(`${base}/hop/1`, { method: "HEAD" });
      assert.equal(head.status, 200);
    });
  });

  test("a Request goes as it is: its method, body and headers", async () => {
    await withRoutes(async (base) => {
      const response = await guardFetch(fetch)(
        new Request(`${base}/echo`, { method: "POST", body: "a=1", headers: { "x-token": "t" } }),
      );
      assert.equal(await response.text(), "POST a=1");
      assert.equal(response.headers.get("x-seen"), "t");
    });
  });

  test("a browser's opaque redirect is refused: where it goes cannot be checked", async () => {
    const opaque = () => {
      const response = new Response(null, { status: 200 });
      Object.defineProperty(response, "type", { value: "opaqueredirect" });
      return Promise.resolve(response);
    };
    const error = await failure(
      guardFetch(opaque as typeof fetch, { server: "docs" })("https://as.example.com/meta"),
    );
    assert.equal(error?.code, "metadata_not_found");
    assert.equal(
      error.message,
      "docs: https://as.example.com/meta redirects, and a browser does not say where to; give the final URL instead",
    );
    assert.equal(error.server, "docs");
    const handedBack = await guardFetch(opaque as typeof fetch)("https://as.example.com/meta", {
      redirect: "manual",
    });
    assert.equal(handedBack.type, "opaqueredirect");
  });
});

describe("answers", () => {
  test("over the cap by Content-Length, or while streaming: refused with the URL and cap", async () => {
    await withRoutes(async (base) => {
      const guarded = guardFetch(fetch, { server: "docs", maxBytes: 1000 });
      for (const path of ["/big", "/big-chunked"]) {
        const error = await failure(guarded(`${base}${path}`));
        assert.equal(error?.name, "ResponseTooLargeError", path);
        assert.equal(
          error.message,
          `docs: the answer of ${base}${path} exceeds the 1000-byte cap of OAuth answers; refused it`,
        );
        assert.equal(error.server, "docs");
      }
      const roomy = guardFetch(fetch, { maxBytes: 2000 });
      assert.equal((await (await roomy(`${base}/big`)).text()).length, 2000);
      assert.equal((await (await roomy(`${base}/big-chunked`)).text()).length, 2000);
    });
  });

  test("the caller's signal stops reading a slow answer", async () => {
    await withRoutes(async (base) => {
      const controller = new AbortController();
      const reading = guardFetch(fetch)(`${base}/slow`, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("enough")), 300);
      // Unstopped, the answer would complete (after 5 s) and the call resolve.
      assert.ok((await failure(reading)) instanceof Error, "the read was stopped");
    });
  });

  test("a bodiless status comes back bodiless, with its headers", async () => {
    await withRoutes(async (base) => {
      const response = await guardFetch(fetch)(`${base}/empty`);
      assert.equal(response.status, 204);
      assert.equal(response.body, null);
    });
  });
});
