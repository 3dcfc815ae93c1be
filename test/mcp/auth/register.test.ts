// Which client a session uses (lib/mcp/auth/_register.ts) and the secrets it reveals to the
// redaction list (lib/mcp/auth/_reveal.ts): the spec's order (pre-registered, metadata document,
// dynamic registration), a metadata URL checked, what a registration asks for and keeps of the
// answer, each way it fails; the redaction list deduplicated and capped at 32 of one session's
// secrets. Registration against the scripted endpoint of _token_endpoint.ts.
// Folded from oauth_register_mutation.test.ts (issue 46).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { applicationType, ensureClient } from "../../../lib/mcp/auth/_register.ts";
import { optionSecrets, revealingStore, secretAdder } from "../../../lib/mcp/auth/_reveal.ts";
import { createMemoryOAuthStore } from "../../../lib/mcp/auth/mod.ts";
import type { AuthorizationServerMetadata } from "../../../lib/mcp/auth/discovery.ts";
import type { AuthOptions, OAuthClientRecord } from "../../../lib/mcp/auth/types.ts";
import { PolicyError, ResponseTooLargeError } from "../../../lib/mcp/protocol/errors.ts";
import { OAuthError } from "../../../lib/mcp/auth/errors.ts";
import { type ScriptedAnswer, type TokenRequest, withTokenEndpoint } from "../_token_endpoint.ts";
import { refused } from "../_oauth_refusal.ts";

const ISSUER = "https://as.example.com";
const as = (extra: Partial<AuthorizationServerMetadata> = {}) =>
  ({ issuer: ISSUER, token_endpoint: `${ISSUER}/token`, ...extra }) as AuthorizationServerMetadata;
const ctx = { fetch, server: "docs" };
const options = (extra: Partial<AuthOptions> = {}) => ({
  store: createMemoryOAuthStore(),
  ...extra,
});

describe("applicationType", () => {
  test("native for loopback and custom schemes, web for other http(s) redirects", () => {
    for (
      const uri of ["http://127.0.0.1:9/cb", "http://localhost/cb", "http://[::1]:80/", "myapp:/cb"]
    ) {
      assert.equal(applicationType(uri), "native", uri);
    }
    for (
      const uri of ["https://app.example.com/cb", "http://app.example.com/cb", "https://127.0.0.1/"]
    ) {
      assert.equal(applicationType(uri), "web", uri);
    }
    assert.equal(applicationType("x-https://cb"), "native", "https only at the start");
    assert.equal(
      applicationType("https://app.example.com/cb?next=http://127.0.0.1/"),
      "web",
      "loopback only at the start",
    );
  });
});

describe("the client, in the spec's order", () => {
  test("a configured client id first, then the one known at this server", async () => {
    const known: OAuthClientRecord = { clientId: "dyn-1", kind: "dynamic" };
    assert.deepEqual(
      await ensureClient(as(), options({ clientId: "pre", clientSecret: "s" }), known, ctx),
      { clientId: "pre", clientSecret: "s", kind: "pre-registered", issuer: ISSUER },
    );
    assert.equal(await ensureClient(as(), options(), known, ctx), known);
    const here = { ...known, issuer: ISSUER };
    assert.equal(await ensureClient(as(), options(), here, ctx), here);
  });

  test("a known client of another issuer is never reused: the server's own way instead", async () => {
    const elsewhere: OAuthClientRecord = {
      clientId: "dyn-a",
      clientSecret: "secret-a",
      kind: "dynamic",
      issuer: "https://a.example.com",
    };
    const error = await ensureClient(as(), options(), elsewhere, ctx).then(
      () => undefined,
      (e) => e,
    );
    assert.ok(error instanceof OAuthError && error.code === "no_client", String(error));
    const { client, request } = await (async () => {
      let out!: { client: OAuthClientRecord; request: TokenRequest };
      await withTokenEndpoint([{ status: 201, body: { client_id: "c-b" } }], async (e, seen) => {
        const client = await ensureClient(
          { ...e.as, registration_endpoint: `${e.url}/register` },
          options(),
          elsewhere,
          ctx,
        );
        out = { client, request: seen[0] };
      });
      return out;
    })();
    assert.equal(client.clientId, "c-b", "registered again at this issuer");
    assert.ok(!JSON.stringify(request).includes("secret-a"));
    assert.ok(!JSON.stringify(request).includes("dyn-a"));
  });

  test("a client metadata document when the server accepts them", async () => {
    const url = "https://app.example.com/client.json";
    assert.deepEqual(
      await ensureClient(
        as({ client_id_metadata_document_supported: true }),
        options({ clientMetadataUrl: url }),
        undefined,
        ctx,
      ),
      {
        clientId: url,
        tokenEndpointAuthMethod: "none",
        kind: "metadata-document",
        issuer: ISSUER,
      },
    );
  });

  test("a metadata URL that is not https with a path is refused", async () => {
    for (
      const url of [
        "http://app.example.com/c.json",
        "https://app.example.com/",
        "https://a.example.com/c#x",
        "nope",
      ]
    ) {
      assert.deepEqual(
        await refused(ensureClient(
          as({ client_id_metadata_document_supported: true }),
          options({ clientMetadataUrl: url }),
          undefined,
          ctx,
        )),
        [
          "no_client",
          `docs: auth.clientMetadataUrl must be an https URL with a path, not "${url}"`,
          "docs",
        ],
        url,
      );
    }
  });

  test("no way to get a client: says what to configure", async () => {
    const documents = as({ client_id_metadata_document_supported: true });
    assert.deepEqual(
      (await refused(ensureClient(documents, options(), undefined, ctx)))[0],
      "no_client",
      "a server that takes metadata documents, but none is configured",
    );
    assert.deepEqual(await refused(ensureClient(as(), options(), undefined, ctx)), [
      "no_client",
      `docs: the authorization server ${ISSUER} offers no dynamic registration; configure a pre-registered client id (auth.clientId) or a client metadata URL (auth.clientMetadataUrl)`,
      "docs",
    ]);
    assert.deepEqual(
      await refused(ensureClient(
        as(),
        options({ clientMetadataUrl: "https://app.example.com/c.json" }),
        undefined,
        ctx,
      )),
      [
        "no_client",
        `docs: the authorization server ${ISSUER} accepts neither client metadata documents (auth.clientMetadataUrl is set) nor dynamic registration; configure a pre-registered client id (auth.clientId)`,
        "docs",
      ],
    );
  });
});

describe("dynamic registration", () => {
  /** Register at the scripted endpoint answering `answer`; the client (or error) and request. */
  async function register(
    answer: ScriptedAnswer,
    extra: Partial<AuthOptions> = {},
    metadata: Partial<AuthorizationServerMetadata> = {},
  ): Promise<
    { client?: OAuthClientRecord; error?: Error; request: TokenRequest; at: string; issuer: string }
  > {
    let out!: {
      client?: OAuthClientRecord;
      error?: Error;
      request: TokenRequest;
      at: string;
      issuer: string;
    };
    await withTokenEndpoint([answer], async (endpoint, requests) => {
      const at = `${endpoint.url}/register`;
      const result = await ensureClient(
        { ...endpoint.as, registration_endpoint: at, ...metadata },
        options(extra),
        undefined,
        ctx,
      ).then((client) => ({ client }), (error) => ({ error }));
      out = { ...result, request: requests[0], at, issuer: endpoint.as.issuer };
    });
    return out;
  }

  test("what it asks for: name, redirect, grants, application type, no secret by default", async () => {
    const { client, request, issuer } = await register(
      { status: 201, body: { client_id: "c-1" } },
      { redirectUri: "http://127.0.0.1:9/cb" },
    );
    assert.deepEqual(client, { clientId: "c-1", kind: "dynamic", issuer }, "bound to its issuer");
    assert.deepEqual(JSON.parse(request.text), {
      client_name: "skillmux",
      redirect_uris: ["http://127.0.0.1:9/cb"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      application_type: "native",
      token_endpoint_auth_method: "none",
    });
    const web = await register(
      { body: { client_id: "c-2" } },
      { redirectUri: "https://app.example.com/cb", clientName: "Lab app" },
    );
    assert.equal(web.client?.clientId, "c-2", "200 is accepted too");
    const sent = JSON.parse(web.request.text);
    assert.equal(sent.client_name, "Lab app");
    assert.equal(sent.application_type, "web");
    const bare = JSON.parse(
      (await register({ status: 201, body: { client_id: "c" } })).request.text,
    );
    assert.deepEqual(bare.redirect_uris, []);
    assert.equal(bare.application_type, "native");
  });

  test("the authentication asked for follows what the server lists", async () => {
    const method = async (supported: string[] | undefined) =>
      JSON.parse(
        (await register({ status: 201, body: { client_id: "c" } }, {}, {
          token_endpoint_auth_methods_supported: supported,
        })).request.text,
      ).token_endpoint_auth_method;
    assert.equal(await method(["client_secret_basic", "none"]), "none");
    assert.equal(
      await method(["client_secret_post", "client_secret_basic"]),
      "client_secret_basic",
    );
    assert.equal(await method(["private_key_jwt", "client_secret_post"]), "private_key_jwt");
    assert.equal(await method(undefined), "none");
  });

  test("what it keeps of the answer: the secret and a method it knows", async () => {
    for (const m of ["client_secret_basic", "client_secret_post", "none"] as const) {
      const { client, issuer } = await register({
        status: 201,
        body: { client_id: "c", client_secret: "cs", token_endpoint_auth_method: m },
      });
      assert.deepEqual(client, {
        clientId: "c",
        clientSecret: "cs",
        tokenEndpointAuthMethod: m,
        kind: "dynamic",
        issuer,
      });
    }
    const { client, issuer } = await register({
      status: 201,
      body: { client_id: "c", client_secret: 7, token_endpoint_auth_method: "private_key_jwt" },
    });
    assert.deepEqual(client, { clientId: "c", kind: "dynamic", issuer });
  });

  test("each failure says where and why", async () => {
    const cases: Array<[ScriptedAnswer, string]> = [
      [{ status: 400, body: { error: "invalid_redirect_uri" } }, " (HTTP 400)"],
      [{ status: 201, body: { id: "c" } }, ": the answer has no client_id"],
      [{ status: 201, body: { client_id: 7 } }, ": the answer has no client_id"],
      [{ status: 201, body: "null" }, ": the answer has no client_id"],
      [{ status: 201, body: "<html>" }, ": the answer is not JSON"],
    ];
    for (const [answer, problem] of cases) {
      const { error, at } = await register(answer);
      assert.deepEqual(
        [(error as { code?: string }).code, error?.message, (error as { server?: string }).server],
        [
          "registration_failed",
          `docs: dynamic client registration at ${at} failed${problem}`,
          "docs",
        ],
        problem,
      );
    }
  });

  test("a network failure is a registration failure; a refusal by policy passes as it is", async () => {
    const at = "https://as.example.com/register";
    const failing = (error: Error) => ({ ...ctx, fetch: () => Promise.reject(error) });
    assert.deepEqual(
      await refused(ensureClient(
        as({ registration_endpoint: at }),
        options(),
        undefined,
        failing(new TypeError("fetch failed")),
      )),
      [
        "registration_failed",
        `docs: dynamic client registration at ${at} failed: network error`,
        "docs",
      ],
    );
    const refusals = [
      new PolicyError("private address"),
      new OAuthError("insecure_url", "refused"),
      new ResponseTooLargeError(10),
    ];
    for (const refusal of refusals) {
      const passed = await ensureClient(
        as({ registration_endpoint: at }),
        options(),
        undefined,
        failing(refusal),
      ).catch((e) => e);
      assert.equal(passed, refusal, refusal.name);
    }
  });
});

describe("secrets revealed to the redaction list", () => {
  test("added once each, nothing empty, at most 32 of one session's (oldest out)", () => {
    const list = ["connection-secret"];
    const add = secretAdder(list);
    add(undefined);
    add("");
    add("connection-secret");
    assert.deepEqual(list, ["connection-secret"]);
    for (let i = 0; i < 32; i++) add(`t${i}`);
    assert.equal(list.length, 33);
    add("t0");
    assert.equal(list.length, 33, "a secret already there is not added again");
    add("t32");
    assert.deepEqual(list, [
      "connection-secret",
      ...Array.from({ length: 32 }, (_, i) => `t${i + 1}`),
    ]);
    secretAdder(undefined)("x"); // no list: nothing to do, no error
  });

  test("the oldest goes also when it is the first of the list", () => {
    const list: string[] = [];
    const add = secretAdder(list);
    for (let i = 0; i <= 32; i++) add(`t${i}`);
    assert.deepEqual(list, Array.from({ length: 32 }, (_, i) => `t${i + 1}`));
  });

  test("a session's oldest is dropped even when something else moved the list", () => {
    const list: string[] = [];
    const add = secretAdder(list);
    for (let i = 0; i < 32; i++) add(`t${i}`);
    list.splice(0, 1); // t0 already gone
    list.unshift("other");
    add("t32");
    assert.deepEqual(list, ["other", ...Array.from({ length: 32 }, (_, i) => `t${i + 1}`)]);
  });

  test("the option's secrets; a store's records reveal theirs on the way in and out", async () => {
    assert.deepEqual(
      optionSecrets({
        store: createMemoryOAuthStore(),
        clientSecret: "a",
        clientCredentials: { clientId: "c", clientSecret: "b" },
      }),
      ["a", "b"],
    );
    const seen: (string | undefined)[] = [];
    const inner = createMemoryOAuthStore();
    const store = revealingStore(inner, (s) => seen.push(s));
    await store.set("https://mcp.example.com/", {
      issuer: ISSUER,
      tokens: { accessToken: "at", refreshToken: "rt" },
      client: { clientId: "c", clientSecret: "cs", kind: "dynamic" },
    } as never);
    assert.deepEqual(seen, ["at", "rt", "cs"]);
    seen.length = 0;
    assert.equal((await store.get("https://mcp.example.com/"))?.tokens?.accessToken, "at");
    assert.deepEqual(seen, ["at", "rt", "cs"]);
    seen.length = 0;
    await store.set("https://other.example.com/", {
      issuer: ISSUER,
      client: { clientId: "c", clientSecret: "cs2", kind: "dynamic" },
    } as never);
    assert.deepEqual(seen, [undefined, undefined, "cs2"], "a record without tokens");
    await store.delete("https://mcp.example.com/");
    assert.equal(await inner.get("https://mcp.example.com/"), undefined);
  });
});
