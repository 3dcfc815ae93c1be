// Private deadline helpers: one real listener per parent signal, children abort together.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isTimeoutError, raceSignal, scopedSignal } from "../lib/_abort.ts";

function countingController(): { controller: AbortController; listeners: () => number } {
  const controller = new AbortController();
  let added = 0;
  const add = controller.signal.addEventListener.bind(controller.signal);
  controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
    added++;
    return add(...args);
  }) as typeof add;
  return { controller, listeners: () => added };
}

test("200 children of one signal share one listener and all abort with the parent's reason", async () => {
  const { controller, listeners } = countingController();
  const children = Array.from({ length: 200 }, () => scopedSignal([controller.signal], 60_000));
  const raced = children.map((c) => raceSignal(new Promise<never>(() => {}), c.signal));
  assert.equal(listeners(), 1);
  const reason = new Error("stop");
  controller.abort(reason);
  for (const result of await Promise.allSettled(raced)) {
    assert.deepEqual(result, { status: "rejected", reason });
  }
  for (const child of children) child.dispose();
});

test("a disposed child is not aborted by its parent", () => {
  const parent = new AbortController();
  const kept = scopedSignal([parent.signal]);
  const gone = scopedSignal([parent.signal]);
  gone.dispose();
  parent.abort();
  assert.equal(kept.signal.aborted, true);
  assert.equal(gone.signal.aborted, false);
});

test("the timeout reason is a TimeoutError and the timer is cleared by dispose", async () => {
  const timed = scopedSignal([], 5, "too slow");
  const reason = await raceSignal(new Promise<never>(() => {}), timed.signal).catch((e) => e);
  assert.ok(isTimeoutError(reason));
  assert.equal(reason.message, "too slow");
  const cleared = scopedSignal([], 5);
  cleared.dispose();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(cleared.signal.aborted, false);
});

test("an already-aborted parent aborts the child at once", () => {
  const child = scopedSignal([AbortSignal.abort(new Error("early"))], 1_000);
  assert.equal(child.signal.aborted, true);
  assert.equal((child.signal.reason as Error).message, "early");
  child.dispose();
});
