// The MCP skill source's connection (lib/resolve/mcp_source.ts), against the fault server and the
// scripted lab server: a server that fails to connect is skipped for its cooldown (30 s by
// default) and tried again after it; a connect the caller gave up on is neither shared nor the
// start of a cooldown; a session outlives the signal of the call that opened it; and the caller's
// signal reaches every request, cancelling with the caller's reason.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createResolver } from "../../lib/resolve/resolver.ts";
import { waitUntil } from "../_wait.ts";
import { type FaultServer, hangHeaders, startFaultServer, status } from "../mcp/_fault_server.ts";
import { mcpSources } from "./_helpers.ts";
import { type Lab, withLab } from "./_lab.ts";

const { source, disposeAll } = mcpSources();
const signal = () => new AbortController().signal;
after(disposeAll);

describe("a server that fails to connect", () => {
  let fault: FaultServer;
  before(async () => {
    fault = await startFaultServer();
    fault.fallback = status(500, "down for maintenance");
  });
  after(() => fault.close());

  test("is skipped for 30 s by default, and the diagnostic says how long", async () => {
    const flaky = source(fault.url);
    const resolver = createResolver({ sources: [flaky] });
    await resolver.resolve("star").catch(() => {});
    const tried = fault.received.length;
    const error = await resolver.resolve("star").catch((e) => e);
    assert.equal(fault.received.length, tried, "no new attempt");
    assert.match(error.diagnostics[0].message, /down for maintenance.*next attempt in 30 s\)$/);
  });

  test("is tried again once its cooldown ended", async () => {
    const flaky = source(fault.url, { retryAfterMs: 50 });
    const resolver = createResolver({ sources: [flaky] });
    await resolver.resolve("star").catch(() => {});
    const tried = fault.received.length;
    await new Promise((r) => setTimeout(r, 80));
    await resolver.resolve("star").catch(() => {});
    assert.ok(fault.received.length > tried, "a new attempt");
  });

  /** A server of its own that hangs on its first request, then answers 500 (no script leaks). */
  async function hangingOnce(): Promise<FaultServer> {
    const own = await startFaultServer();
    own.fallback = status(500, "down for maintenance");
    own.script(hangHeaders());
    return own;
  }

  test("a connection the caller gave up on is not shared, and starts no cooldown", async () => {
    // The first connect hangs until the caller's 1 s pass; the next call, made at once while
    // that connect is still being cancelled, starts its own and gets the server's own answer.
    const own = await hangingOnce();
    try {
      const resolver = createResolver({ sources: [source(own.url, { timeoutMs: 1_000 })] });
      const first = await resolver.resolve("star").catch((e) => e);
      assert.equal(first.diagnostics[0].problem, "timeout");
      const tried = own.received.length;
      const second = await resolver.resolve("star").catch((e) => e);
      assert.ok(own.received.length > tried, "tried again at once");
      assert.match(second.diagnostics[0].message, /HTTP 500 .*down for maintenance$/);
      const third = await resolver.resolve("star").catch((e) => e);
      assert.match(third.diagnostics[0].message, /down for maintenance \(skipped; next attempt/);
    } finally {
      await own.close();
    }
  });

  test("a connect the caller gave up on, once cancelled, leaves the server untried", async () => {
    const own = await hangingOnce();
    try {
      const resolver = createResolver({ sources: [source(own.url, { timeoutMs: 1_000 })] });
      const first = await resolver.resolve("star").catch((e) => e);
      assert.equal(first.diagnostics[0].problem, "timeout");
      await new Promise((r) => setTimeout(r, 300)); // the cancelled connect has settled
      const tried = own.received.length;
      const second = await resolver.resolve("star").catch((e) => e);
      assert.ok(own.received.length > tried, "tried again");
      assert.match(second.diagnostics[0].message, /HTTP 500 .*down for maintenance$/);
    } finally {
      await own.close();
    }
  });
});

describe("the session", () => {
  test("outlives the signal of the call that opened it", async () => {
    await withLab(async (lab) => {
      const team = source(lab.url);
      const opener = new AbortController();
      await team.list({ signal: opener.signal });
      opener.abort();
      assert.equal((await team.get("star", { signal: signal() }))?.location, "skill://star");
      assert.equal(lab.count("initialize"), 1);
    });
  });

  test("a connect the caller gave up on never clears the one that replaced it", async () => {
    await withLab(async (lab) => {
      lab.fault.script(hangHeaders()); // the first initialize is never answered
      const team = source(lab.url);
      const first = new AbortController();
      // Cold lookups: each asks for the session at once (a listing would wait for the first).
      const gaveUp = team.get("star", { signal: first.signal });
      await waitUntil(() => lab.count("initialize") === 1);
      first.abort();
      const next = team.get("star", { signal: signal() }); // the first is still being cancelled
      await assert.rejects(gaveUp);
      assert.equal((await next)?.location, "skill://star");
      await team.get("star", { signal: signal() });
      assert.equal(lab.count("initialize"), 2, "the second connection is the one used");
    });
  });

  test("a server in its cooldown fails with a CircuitOpenError naming it", async () => {
    const fault = await startFaultServer();
    fault.fallback = status(500, "down for maintenance");
    try {
      const flaky = source(fault.url);
      await assert.rejects(flaky.list({ signal: signal() }));
      const error = await flaky.list({ signal: signal() }).catch((e) => e);
      assert.equal(error.name, "CircuitOpenError");
      assert.equal(error.server, flaky.server.name);
      assert.equal(await flaky.peek!("star", { signal: signal() }), undefined, "peek: unknown");
    } finally {
      await fault.close();
    }
  });
});

describe("the caller's signal reaches every request", () => {
  /** Hold `method`, run `call` with a signal aborted once `method` arrived; its rejection. */
  async function cancelled(
    lab: Lab,
    method: string,
    call: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<unknown> {
    lab.hold.add(method);
    const caller = new AbortController();
    const before = lab.count(method);
    const settled = call(caller.signal).then(() => "resolved", (error) => error);
    await waitUntil(() => lab.count(method) > before);
    const reason = new Error("the caller gave up");
    caller.abort(reason);
    const outcome = await settled;
    assert.equal(outcome, reason, `${method}: ends with the caller's reason`);
    return outcome;
  }
  // The client's own request timeout is 5 s: a request the signal does not reach ends with that
  // (a TimeoutError), not with the caller's reason.
  const options = { connect: { timeoutMs: 5_000 } };

  test("resources/list", async () => {
    await withLab(async (lab) => {
      const team = source(lab.url, options);
      await cancelled(lab, "resources/list", (s) => team.list({ signal: s }));
    });
  });

  test("skills/list", async () => {
    await withLab(async (lab) => {
      const team = source(lab.url, options);
      await cancelled(lab, "skills/list", (s) => team.list({ signal: s }));
    }, { skills: true });
  });

  test("the speculative read of a cold lookup, and the read of a warm one", async () => {
    await withLab(async (lab) => {
      const cold = source(lab.url, options);
      await cancelled(lab, "resources/read", (s) => cold.get("star", { signal: s }));
    });
    await withLab(async (lab) => {
      const warm = source(lab.url, options);
      await warm.list({ signal: signal() });
      await cancelled(lab, "resources/read", (s) => warm.get("star", { signal: s }));
    });
  });

  test("the template listing: cancelled as the caller's, not left to time out", async () => {
    await withLab(async (lab) => {
      lab.hold.add("resources/templates/list");
      const team = source(lab.url, options);
      const caller = new AbortController();
      const listing = team.list({ signal: caller.signal }).catch((e) => e);
      await waitUntil(() => lab.count("resources/templates/list") === 1);
      caller.abort(new Error("the caller gave up"));
      await listing; // a failing template listing only means "no template"
      // (resources/list may be cancelled too: its answer can still be on the way.)
      const templates = () => lab.cancels().filter((c) => c.method === "resources/templates/list");
      await waitUntil(() => templates().length > 0, 8_000);
      assert.deepEqual(templates(), [
        { method: "resources/templates/list", reason: "aborted by the client" },
      ]);
    });
  });
});
