// A URL without a path is tried at `/mcp` first; a server mounted at `/` (the MCP SDK server
// behind a router that knows only `/`) answers 404 there, so the client tries the URL as given,
// and `client.hint.endpoint` records that the root answered: a connect with that hint goes
// straight to `/`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { connect } from "../../../lib/mcp/client/client.ts";
import { createMemoryStorage, createServerRegistry } from "../../../lib/mod.ts";
import { startSdkServer } from "../_servers.ts";

/** The SDK server mounted at `/` only; `paths` records the path of every request. */
async function rootServer() {
  const paths: string[] = [];
  const server = await startSdkServer({
    guard(req, res) {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      paths.push(`${req.method} ${path}`);
      if (path === "/") return false;
      res.writeHead(404, { "content-type": "text/plain" }).end(`Cannot ${req.method} ${path}`);
      return true;
    },
  });
  return { paths, root: server.url.replace(/\/mcp$/, ""), close: () => server.close() };
}

test("a server mounted at / is reached when /mcp is not found, and the hint records it", async () => {
  const server = await rootServer();
  try {
    const client = await connect({ name: "root", url: server.root }, { http: { retries: 0 } });
    try {
      assert.ok((await client.listTools()).some((tool) => tool.name === "echo"));
      assert.equal(client.hint.endpoint, `${server.root}/`);
    } finally {
      await client.close();
    }
    assert.ok(server.paths.includes("POST /mcp"), "/mcp is tried first");
    const hint = client.hint;
    server.paths.length = 0;
    const again = await connect({ name: "root", url: server.root }, {
      hint,
      http: { retries: 0 },
    });
    try {
      assert.ok((await again.listTools()).length > 0);
    } finally {
      await again.close();
    }
    assert.deepEqual(
      server.paths.filter((p) => p.endsWith("/mcp")),
      [],
      "with the hint, /mcp is not tried again",
    );
  } finally {
    await server.close();
  }
});

test("a server at /mcp keeps answering there, with no endpoint in the hint", async () => {
  const server = await startSdkServer();
  try {
    const root = server.url.replace(/\/mcp$/, "");
    const client = await connect({ name: "plain", url: root }, { http: { retries: 0 } });
    try {
      assert.ok((await client.listTools()).length > 0);
      assert.equal(client.hint.endpoint, undefined);
    } finally {
      await client.close();
    }
  } finally {
    await server.close();
  }
});

test("the registry records that the root answered", async () => {
  const server = await rootServer();
  try {
    const registry = createServerRegistry({ storage: createMemoryStorage() });
    const { discovery } = await registry.add({ name: "root", url: server.root });
    assert.equal(discovery?.hint?.endpoint, `${server.root}/`);
  } finally {
    await server.close();
  }
});
