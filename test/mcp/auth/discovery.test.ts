// OAuth discovery (lib/mcp/auth/discovery.ts): which well-known URLs are asked and in what order,
// what a protected-resource document must hold (resource, authorization_servers, a resource that
// covers the server), what an authorization server's metadata must hold (its exact issuer, compared
// as a string per RFC 8414 §3.3, endpoints that are URLs), each failure's code and message, and the
// endpoints made up for a server that publishes nothing. Against a metadata server on 127.0.0.1
// whose documents each test sets.
// Folded from oauth_discovery_mutation.test.ts and oauth_issuer_exact.test.ts (issue 46).
import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import {
  authorizationServerMetadataUrls,
  discoverAuthorization,
  discoverAuthorizationServer,
  discoverResourceMetadata,
  isAllowedOAuthUrl,
} from "../../../lib/mcp/auth/discovery.ts";
import { isOAuthError } from "../../../lib/mcp/auth/mod.ts";
import { refusedEndpoint } from "../../../lib/mcp/auth/_refused.ts";
import { listenLocal } from "../_servers.ts";
import { refused } from "../_oauth_refusal.ts";

type Documents = Record<string, unknown>;
/** A document that answers 304 (no body), or never answers. */
const NOT_MODIFIED = Symbol("304");
const HANG = Symbol("hang");
/** The Accept header of every request, in order (of the current withDocuments). */
let accepts: string[] = [];

/** A server answering `documents[path]` (JSON, or a string as it is), 404 elsewhere. */
async function withDocuments(
  documents: (base: string) => Documents,
  fn: (base: string, asked: string[]) => Promise<void>,
): Promise<void> {
  const asked: string[] = [];
  accepts = [];
  let docs: Documents = {};
  const server = http.createServer((req, res) => {
    const path = req.url ?? "";
    asked.push(path);
    accepts.push(req.headers.accept ?? "");
    if (!(path in docs)) return void res.writeHead(404).end("not here");
    const doc = docs[path];
    if (doc === NOT_MODIFIED) return void res.writeHead(304).end();
    if (doc === HANG) return; // never answers
    res.writeHead(200, { "content-type": "application/json" })
      .end(typeof doc === "string" ? doc : JSON.stringify(doc));
  });
  const listening = await listenLocal(server);
  const base = `http://127.0.0.1:${listening.port}`;
  docs = documents(base);
  try {
    await fn(base, asked);
  } finally {
    server.closeAllConnections();
    await listening.close();
  }
}

const PRM = "/.well-known/oauth-protected-resource";

describe("protected-resource metadata", () => {
  test("a server at the root: one URL; with a path: the path's, then the root's", async () => {
    await withDocuments(() => ({}), async (base, asked) => {
      assert.equal(await discoverResourceMetadata(new URL(`${base}/`)), undefined);
      assert.deepEqual(asked, [PRM]);
      asked.length = 0;
      assert.equal(await discoverResourceMetadata(new URL(`${base}/mcp/`)), undefined);
      assert.deepEqual(asked, [`${PRM}/mcp`, PRM]);
    });
    await withDocuments(
      (base) => ({ [PRM]: { resource: `${base}/`, authorization_servers: [base] } }),
      async (base) => {
        assert.deepEqual(await discoverResourceMetadata(new URL(`${base}/mcp`)), {
          resource: `${base}/`,
          authorization_servers: [base],
          scopes_supported: undefined,
        });
      },
    );
  });

  test("asks for JSON; trailing slashes do not make a path; a 304 is no document", async () => {
    await withDocuments(() => ({ [PRM]: NOT_MODIFIED }), async (base, asked) => {
      assert.equal(await discoverResourceMetadata(new URL(`${base}//`)), undefined);
      assert.deepEqual(asked, [PRM]);
      assert.deepEqual(accepts, ["application/json"]);
    });
  });

  test("the timeout, the byte cap and a fetch that fails without an error all end clearly", async () => {
    await withDocuments(() => ({ [PRM]: HANG }), async (base) => {
      const error = await discoverResourceMetadata(new URL(`${base}/`), { timeoutMs: 200 })
        .catch((e) => e);
      assert.equal(error.code, "metadata_not_found");
    });
    await withDocuments(
      (base) => ({ [PRM]: { resource: `${base}/`, pad: "x".repeat(200) } }),
      async (base) => {
        const error = await discoverResourceMetadata(new URL(`${base}/`), {
          maxBytes: 100,
          server: "docs",
        })
          .catch((e) => e);
        assert.equal(error.name, "ResponseTooLargeError");
        assert.match(error.message, /^docs: the answer of .* exceeds the 100-byte cap/);
      },
    );
    const error = await discoverResourceMetadata(new URL("https://mcp.example.com/"), {
      fetch: () => Promise.reject(undefined),
    }).catch((e) => e);
    assert.equal(error.code, "metadata_not_found");
  });

  test("the challenge's metadata URL is the only one asked", async () => {
    await withDocuments(
      (base) => ({ "/meta/prm": { resource: `${base}/mcp`, scopes_supported: ["read", "write"] } }),
      async (base, asked) => {
        const prm = await discoverResourceMetadata(new URL(`${base}/mcp`), {
          metadataUrl: "/meta/prm",
        });
        assert.deepEqual(prm?.scopes_supported, ["read", "write"]);
        assert.equal(prm?.authorization_servers, undefined);
        assert.deepEqual(asked, ["/meta/prm"]);
      },
    );
  });

  test("what the document must hold", async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ authorization_servers: [] }, "invalid_metadata", '"resource" is missing'],
      [{ resource: 7 }, "invalid_metadata", '"resource" is missing'],
      [
        { resource: "R/mcp", authorization_servers: "https://as.example.com" },
        "invalid_metadata",
        '"authorization_servers" must be an array of URLs',
      ],
      [
        { resource: "R/mcp", authorization_servers: ["https://as.example.com", 7] },
        "invalid_metadata",
        '"authorization_servers" must be an array of URLs',
      ],
      [
        { resource: "R/mcp", authorization_servers: [7] },
        "invalid_metadata",
        '"authorization_servers" must be an array of URLs',
      ],
    ];
    for (const [doc, code, problem] of cases) {
      await withDocuments(
        (base) => ({ [`${PRM}/mcp`]: JSON.parse(JSON.stringify(doc).replace('"R/', `"${base}/`)) }),
        async (base) => {
          assert.deepEqual(
            await refused(discoverResourceMetadata(new URL(`${base}/mcp`), { server: "docs" })),
            [code, `docs: ${base}${PRM}/mcp: ${problem}`, "docs"],
          );
        },
      );
    }
  });

  test("the resource must be the server's URL or a path prefix of it, on its origin", async () => {
    const covers = async (resource: (base: string) => string, path: string) => {
      let result: string | undefined;
      await withDocuments((base) => ({ "/prm": { resource: resource(base) } }), async (base) => {
        const outcome = await discoverResourceMetadata(new URL(`${base}${path}`), {
          metadataUrl: "/prm",
        }).then(() => "covers", (e) => e.code);
        result = outcome;
      });
      return result;
    };
    assert.equal(await covers((b) => `${b}/mcp`, "/mcp"), "covers");
    assert.equal(await covers((b) => `${b}/mcp/`, "/mcp"), "covers");
    assert.equal(await covers((b) => `${b}/`, "/mcp"), "covers");
    assert.equal(await covers((b) => `${b}/api`, "/api/mcp"), "covers");
    assert.equal(await covers((b) => `${b}/mc`, "/mcp"), "resource_mismatch");
    assert.equal(await covers((b) => `${b}/mcp/x`, "/mcp"), "resource_mismatch");
    assert.equal(await covers(() => "http://127.0.0.2:1/mcp", "/mcp"), "resource_mismatch");
    assert.equal(await covers(() => "not a url", "/mcp"), "resource_mismatch");
    await withDocuments(
      () => ({ "/prm": { resource: "https://other.example.com/" } }),
      async (base) => {
        assert.deepEqual(
          await refused(discoverResourceMetadata(new URL(`${base}/mcp`), { metadataUrl: "/prm" })),
          [
            "resource_mismatch",
            `${base}: the protected-resource metadata is for https://other.example.com/, not ${base}/mcp`,
            undefined,
          ],
        );
      },
    );
  });

  test("a mismatch names the server when one is given", async () => {
    await withDocuments(
      () => ({ "/prm": { resource: "https://other.example.com/" } }),
      async (base) => {
        const [code, , server] = await refused(
          discoverResourceMetadata(new URL(`${base}/mcp`), { metadataUrl: "/prm", server: "docs" }),
        );
        assert.deepEqual([code, server], ["resource_mismatch", "docs"]);
      },
    );
  });

  test("an answer that is not a JSON object, and a server that does not answer", async () => {
    for (const body of ["<html>", "[1]", "null", "7"]) {
      await withDocuments(() => ({ "/prm": body }), async (base) => {
        assert.deepEqual(
          await refused(discoverResourceMetadata(new URL(`${base}/mcp`), {
            metadataUrl: "/prm",
            server: "docs",
          })),
          ["invalid_metadata", `docs: ${base}/prm did not answer a JSON object`, "docs"],
          body,
        );
      });
    }
    // A port nothing listens on (one just closed).
    const closed = await listenLocal(http.createServer());
    await closed.close();
    const base = `http://127.0.0.1:${closed.port}`;
    const error = await discoverResourceMetadata(new URL(`${base}/mcp`)).catch((e) => e);
    assert.equal(error.code, "metadata_not_found");
    assert.equal(error.message, `${base}: GET ${base}${PRM}/mcp failed`);
    assert.ok(error.cause, "the network error is kept as the cause");
  });

  test("the caller's cancellation comes back as its reason", async () => {
    await withDocuments(() => ({}), async (base) => {
      const controller = new AbortController();
      const reason = new Error("user left");
      controller.abort(reason);
      assert.equal(
        await discoverResourceMetadata(new URL(`${base}/mcp`), { signal: controller.signal })
          .catch((e) => e),
        reason,
      );
    });
  });
});

describe("authorization server metadata", () => {
  test("https, or http on a loopback host: localhost, 127.0.0.0/8, [::1]", () => {
    const allowed = (url: string) => isAllowedOAuthUrl(new URL(url));
    for (
      const url of [
        "https://as.example.com/",
        "http://localhost:1/",
        "http://127.10.20.30/",
        "http://[::1]/",
      ]
    ) {
      assert.equal(allowed(url), true, url);
    }
    for (
      const url of [
        "http://as.example.com/",
        "http://127.0.0.1.nip.io/",
        "http://128.0.0.1/",
        "ftp://127.0.0.1/",
        "javascript:alert(1)",
      ]
    ) {
      assert.equal(allowed(url), false, url);
    }
  });

  test("the URLs in the spec's order, with and without a path", () => {
    assert.deepEqual(
      authorizationServerMetadataUrls(new URL("https://as.example.com")).map(String),
      [
        "https://as.example.com/.well-known/oauth-authorization-server",
        "https://as.example.com/.well-known/openid-configuration",
      ],
    );
    assert.deepEqual(
      authorizationServerMetadataUrls(new URL("https://as.example.com/tenant1//")).map(String),
      [
        "https://as.example.com/.well-known/oauth-authorization-server/tenant1",
        "https://as.example.com/.well-known/openid-configuration/tenant1",
        "https://as.example.com/tenant1/.well-known/openid-configuration",
      ],
    );
  });

  test("an issuer that is not a URL", async () => {
    assert.deepEqual(await refused(discoverAuthorizationServer("nope", { server: "docs" })), [
      "invalid_metadata",
      'docs: "nope" is not a URL',
      "docs",
    ]);
  });

  test("each sign-in endpoint must be a URL, and https or loopback http", async () => {
    const meta = (base: string, extra: object) => ({
      issuer: base,
      code_challenge_methods_supported: ["S256"],
      token_endpoint: `${base}/token`,
      ...extra,
    });
    const AS = "/.well-known/oauth-authorization-server";
    for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint"]) {
      for (const value of ["not a url", 42]) {
        await withDocuments(
          (base) => ({ [AS]: meta(base, { [field]: value }) }),
          async (base) => {
            assert.deepEqual(
              await refused(discoverAuthorizationServer(base, { server: "docs" })),
              ["invalid_metadata", `docs: ${base}${AS}: "${field}" is not a URL`, "docs"],
            );
          },
        );
      }
      await withDocuments(
        (base) => ({ [AS]: meta(base, { [field]: "http://login.example.com/x" }) }),
        async (base) => {
          const [code, message] = await refused(
            discoverAuthorizationServer(base, { server: "docs" }),
          );
          assert.equal(code, "insecure_url");
          assert.match(
            message,
            new RegExp(`^docs: refused the ${field} of the authorization server ${base}/ "http://`),
          );
        },
      );
    }
  });

  test("any other endpoint that is not a URL or not https is left out, and why is kept", async () => {
    const AS = "/.well-known/oauth-authorization-server";
    const odd = {
      revocation_endpoint: "http://login.example.com/revoke",
      introspection_endpoint: 42,
      userinfo_endpoint: "not a url",
      jwks_uri: "http://keys.example.com/jwks",
      pushed_authorization_request_endpoint: "javascript:alert(1)",
      device_authorization_endpoint: "data:text/plain,x",
      end_session_endpoint: "http://login.example.com/logout",
    };
    await withDocuments(
      (base) => ({
        [AS]: {
          issuer: base,
          code_challenge_methods_supported: ["S256"],
          token_endpoint: `${base}/token`,
          ...odd,
        },
      }),
      async (base) => {
        const as = (await discoverAuthorizationServer(base, { server: "docs" }))!;
        assert.equal(as.token_endpoint, `${base}/token`);
        for (const field of Object.keys(odd)) assert.equal(as[field], undefined, field);
        assert.equal(
          refusedEndpoint(as, "revocation_endpoint"),
          'the authorization server\'s revocation_endpoint "http://login.example.com/revoke" ' +
            "is not https (OAuth needs https, or http on a loopback host)",
        );
        assert.equal(
          refusedEndpoint(as, "introspection_endpoint"),
          "the authorization server's introspection_endpoint is not a URL",
        );
        assert.equal(refusedEndpoint(as, "token_endpoint"), undefined);
      },
    );
    await withDocuments(
      (base) => ({
        [AS]: {
          issuer: base,
          code_challenge_methods_supported: ["S256"],
          token_endpoint: `${base}/token`,
          revocation_endpoint: `${base}/revoke`,
        },
      }),
      async (base) => {
        const as = (await discoverAuthorizationServer(base))!;
        assert.equal(as.revocation_endpoint, `${base}/revoke`, "a loopback one is kept");
        assert.equal(refusedEndpoint(as, "revocation_endpoint"), undefined);
      },
    );
  });
});

describe("discovery of an MCP server", () => {
  test("a resource document naming no authorization server", async () => {
    await withDocuments(
      (base) => ({ [`${PRM}/mcp`]: { resource: `${base}/mcp` } }),
      async (base) => {
        assert.deepEqual(
          await refused(discoverAuthorization(new URL(`${base}/mcp`), { server: "docs" })),
          [
            "invalid_metadata",
            "docs: the protected-resource metadata lists no authorization server",
            "docs",
          ],
        );
      },
    );
  });

  test("an authorization server that publishes no metadata", async () => {
    await withDocuments(
      (base) => ({
        [`${PRM}/mcp`]: { resource: `${base}/mcp`, authorization_servers: [`${base}/as`] },
      }),
      async (base) => {
        assert.deepEqual(
          await refused(discoverAuthorization(new URL(`${base}/mcp`), { server: "docs" })),
          [
            "metadata_not_found",
            `docs: the authorization server ${base}/as publishes no metadata`,
            "docs",
          ],
        );
      },
    );
  });

  test("a server that publishes nothing is its own authorization server, endpoints on its origin", async () => {
    await withDocuments(() => ({}), async (base) => {
      assert.deepEqual(await discoverAuthorization(new URL(`${base}/mcp`)), {
        synthesized: true,
        server: {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          code_challenge_methods_supported: ["S256"],
        },
      });
    });
  });
});

/** A server whose authorization-server metadata names `state.issuer` as its issuer. */
async function metadataServer() {
  const state = { issuer: "" };
  const server = http.createServer((req, res) => {
    if (req.url !== "/.well-known/oauth-authorization-server") {
      res.writeHead(404).end();
      return;
    }
    const base = state.issuer;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
      issuer: base,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      code_challenge_methods_supported: ["S256"],
    }));
  });
  const listening = await listenLocal(server);
  const origin = `http://127.0.0.1:${listening.port}`;
  return { state, origin, port: listening.port, close: () => listening.close() };
}

// RFC 8414 §3.3: an issuer that differs only in case, a leading-zero port or a trailing `/` is
// refused as `issuer_mismatch`; the exact string is accepted.
describe("the issuer compared as a string", () => {
  test("the metadata issuer must equal the expected issuer as a string", async () => {
    const server = await metadataServer();
    try {
      const variants = [
        `HTTP://127.0.0.1:${server.port}`,
        `http://127.0.0.1:0${server.port}`,
        `${server.origin}/`,
      ];
      for (const issuer of variants) {
        server.state.issuer = issuer;
        const error = await discoverAuthorizationServer(server.origin, { server: "as" })
          .then(() => undefined, (e: unknown) => e);
        assert.ok(isOAuthError(error, "issuer_mismatch"), `${issuer} must be refused`);
        assert.match(error.message, /expected exactly/);
      }
      server.state.issuer = server.origin;
      const metadata = await discoverAuthorizationServer(server.origin, { server: "as" });
      assert.equal(metadata?.issuer, server.origin);
    } finally {
      await server.close();
    }
  });
});
