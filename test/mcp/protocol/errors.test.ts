// The MCP error family: every class is an McpError with a stable `name`, its own `code` and the
// `cause` it was given; isMcpError narrows by name; and the errors a real connection throws carry
// their code. Through the public "./mcp" entry.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  CircuitOpenError,
  ConflictError,
  connect,
  ForbiddenError,
  HttpError,
  isMcpError,
  McpError,
  type McpErrorCode,
  NetworkError,
  OAuthError,
  PolicyError,
  ProtocolError,
  ResponseTooLargeError,
  RpcError,
  SecretKeyError,
  SessionExpiredError,
  SkillVerificationError,
  StreamEndedError,
  TimeoutError,
  UnsupportedProtocolVersionError,
} from "../../../lib/mcp/mod.ts";
import { deadUrl } from "../../_closed_port.ts";

const cause = new Error("the underlying failure");
const options = { server: "docs", cause };

/** Each class built with `cause`, with the name and code it must carry. */
const FAMILY: Array<[McpError, string, McpErrorCode]> = [
  [new McpError("x", options), "McpError", "failed"],
  [new McpError("x", { ...options, code: "cancelled" }), "McpError", "cancelled"],
  [new HttpError(503, "Service Unavailable", "busy", options), "HttpError", "http"],
  [new NetworkError("refused", options), "NetworkError", "network"],
  [new TimeoutError("slow", options), "TimeoutError", "timeout"],
  [new ResponseTooLargeError(10, options), "ResponseTooLargeError", "too-large"],
  [new StreamEndedError("closed", options), "StreamEndedError", "stream-ended"],
  [new CircuitOpenError("open", 1_000, options), "CircuitOpenError", "circuit-open"],
  [new ProtocolError("bad JSON", options), "ProtocolError", "protocol"],
  [new RpcError(-32601, "Method not found", undefined, options), "RpcError", "rpc"],
  [
    new UnsupportedProtocolVersionError("1999-01-01", options),
    "UnsupportedProtocolVersionError",
    "unsupported-version",
  ],
  [new SessionExpiredError("gone", options), "SessionExpiredError", "session-expired"],
  [new PolicyError("refused", options), "PolicyError", "policy"],
  [
    new SkillVerificationError("digest", "skill://a/SKILL.md", "mismatch", options),
    "SkillVerificationError",
    "skill-verification",
  ],
  [new SecretKeyError("wrong key", options), "SecretKeyError", "secret-key"],
  [new ForbiddenError("not the owner", options), "ForbiddenError", "forbidden"],
  [new ConflictError("raced", options), "ConflictError", "conflict"],
  [new OAuthError("reauth_required", "sign in again", options), "OAuthError", "reauth_required"],
];

describe("the MCP error family", () => {
  test("every class is an McpError with its name, its code, the server and the cause", () => {
    for (const [error, name, code] of FAMILY) {
      assert.ok(error instanceof McpError, name);
      assert.ok(error instanceof Error, name);
      assert.deepEqual([error.name, error.code, error.server, error.cause], [
        name,
        code,
        "docs",
        cause,
      ]);
      assert.ok(isMcpError(error), name);
    }
    const codes = FAMILY.map(([error]) => error.code);
    assert.equal(new Set(codes).size, codes.length, "no two classes share a code");
  });

  test("no cause given is no own `cause`", () => {
    const bare = new NetworkError("refused");
    assert.equal(Object.hasOwn(bare, "cause"), false);
    assert.equal(bare.code, "network");
  });

  test("RpcError: `code` is the family's, the JSON-RPC number is `rpcCode`", () => {
    const error = new RpcError(-32602, "Invalid params", { uri: "x" }, { server: "docs" });
    assert.deepEqual([error.code, error.rpcCode, error.data], ["rpc", -32602, { uri: "x" }]);
    assert.equal(error.message, "docs: MCP error -32602: Invalid params");
  });

  test("isMcpError narrows by name, so the code is the class's", () => {
    const error: unknown = new HttpError(404, "Not Found", "");
    assert.ok(isMcpError(error, "HttpError"));
    const code: "http" = error.code;
    assert.equal(code, "http");
    assert.equal(isMcpError(error, "TimeoutError"), false);
    assert.equal(isMcpError(new Error("plain")), false);
  });

  test("a refused connection rejects with a NetworkError whose code is network", async () => {
    const url = await deadUrl();
    const error = await connect({ name: "dead", url }, { http: { retries: 0 } }).then(
      () => assert.fail("expected a rejection"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof NetworkError, String(error));
    assert.ok(error instanceof McpError);
    assert.deepEqual([error.name, error.code, error.server], ["NetworkError", "network", "dead"]);
    assert.ok(error.cause instanceof Error, "the fetch failure is kept as the cause");
  });
});
