// The registry's clash rules (lib/mcp/registry/_store.ts `clashIndex` and `gone`): a name
// already registered is refused unless replacing, naming the field; a server keeping its own name
// or URL (the same id) clashes with nothing; another server's URL is refused, except the one being
// replaced; stdio servers (no URL) never clash by URL; a target nothing matches is named with how
// it was looked for.
import assert from "node:assert/strict";
import { test } from "node:test";
import { clashIndex, gone } from "../../../lib/mcp/registry/_store.ts";
import type { RegisteredServer } from "../../../lib/mcp/registry/records.ts";

const owned = [
  { id: "s-a", name: "alpha", url: "http://127.0.0.1:1/mcp" },
  { id: "s-b", name: "beta", url: "http://127.0.0.1:2/mcp" },
  { id: "s-c", name: "gamma", command: "gamma-server" },
  { id: "s-d", name: "delta", command: "delta-server" },
] as RegisteredServer[];

const refused = (field: string, message: string) => (e: Error & { field?: string }) => {
  assert.equal(e.name, "PolicyError");
  assert.equal(e.message, message);
  assert.equal(e.field, field);
  return true;
};

test("a name already registered is refused unless replacing", () => {
  assert.throws(
    () => clashIndex(owned, { name: "beta", url: "http://127.0.0.1:9/mcp" }, false),
    refused("name", 'Server "beta" is already registered; remove it first or replace it'),
  );
  assert.equal(clashIndex(owned, { name: "beta", url: "http://127.0.0.1:9/mcp" }, true), 1);
  assert.equal(clashIndex(owned, { name: "new", url: "http://127.0.0.1:9/mcp" }, false), -1);
});

test("a server keeping its own name or URL clashes with nothing; another's id does", () => {
  assert.equal(clashIndex(owned, { ...owned[1], headers: { "X-Changed": "yes" } }, false), -1);
  assert.equal(clashIndex(owned, { ...owned[0], name: "renamed" }, false), -1);
  assert.throws(
    () => clashIndex(owned, { ...owned[0], name: "beta" }, false),
    refused("name", 'Server "beta" is already registered; remove it first or replace it'),
  );
});

test("another server's URL is refused, except the one being replaced", () => {
  assert.throws(
    () => clashIndex(owned, { name: "new", url: owned[1].url }, false),
    refused("url", `Server "beta" already has the URL ${owned[1].url}`),
  );
  assert.throws(
    () => clashIndex(owned, { ...owned[0], url: owned[1].url }, false),
    refused("url", `Server "beta" already has the URL ${owned[1].url}`),
  );
  assert.equal(clashIndex(owned, { name: "beta", url: owned[1].url }, true), 1);
});

test("stdio servers never clash by URL", () => {
  assert.equal(clashIndex(owned, { name: "epsilon", command: "epsilon-server" }, false), -1);
  assert.equal(clashIndex(owned, { ...owned[2], command: "gamma2" }, false), -1);
});

test("a target nothing matches is named with how it was looked for", () => {
  const error = gone("nope");
  assert.equal(error.name, "PolicyError");
  assert.equal(error.message, 'No server matches "nope" (by id, name or URL)');
  assert.equal((error as Error & { field?: string }).field, "name");
});
