// Private: one-at-a-time work in this process, per owner object (a storage, a store) and key:
// each call starts once every earlier call with the same owner and key has settled, whatever
// its outcome. Nothing is kept for a key once its queue is empty.

const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/** Run `fn` after every earlier call with the same `owner` and `key` in this process. */
export function inTurn<T>(owner: object, key: string, fn: () => Promise<T>): Promise<T> {
  let byKey = queues.get(owner);
  if (byKey === undefined) queues.set(owner, byKey = new Map());
  const previous = byKey.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(() => {}, () => {});
  byKey.set(key, settled);
  settled.then(() => {
    if (byKey.get(key) === settled) byKey.delete(key);
  });
  return run;
}
