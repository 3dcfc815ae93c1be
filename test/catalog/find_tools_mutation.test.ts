// findTools's edges where the first mutation run of `catalog` left survivors (issue 19): the
// limit (default, floor, cap, nonsense), an empty or oversized query, the kinds asked for, and
// why each entry matched, field by field, in the words the query used. A real catalog of host
// functions and built-in skills.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createResolver,
  type HostFunction,
} from "../../lib/mod.ts";
import { findTools } from "../../lib/catalog/mod.ts";

const samples: HostFunction[] = Array.from({ length: 60 }, (_, i) => ({
  name: `sample_${String(i).padStart(2, "0")}`,
  description: `Look up stored sample number ${i}`,
  handler: () => i,
}));
const catalog = await createCatalog({
  resolver: createResolver({ sources: [createBuiltinSource()] }),
  functions: [
    ...samples,
    {
      name: "send_email",
      description: "Send an email message to a colleague",
      tags: ["mail", "notify"],
      handler: () => "sent",
    },
  ],
});

test("limit: 5 by default, floored, at most 50; zero, negative or nonsense", () => {
  assert.equal(findTools(catalog, "stored sample").length, 5);
  assert.equal(findTools(catalog, "stored sample", { limit: 2.9 }).length, 2);
  assert.equal(findTools(catalog, "stored sample", { limit: 1_000 }).length, 50);
  assert.equal(findTools(catalog, "stored sample", { limit: 50 }).length, 50);
  assert.equal(findTools(catalog, "stored sample", { limit: 0 }).length, 0);
  assert.equal(findTools(catalog, "stored sample", { limit: -3 }).length, 0);
  assert.equal(findTools(catalog, "stored sample", { limit: Number.NaN }).length, 5);
  assert.equal(findTools(catalog, "stored sample", { limit: Infinity }).length, 5);
});

test("an empty query finds nothing; a long one is read up to 2,000 characters", () => {
  assert.deepEqual(findTools(catalog, "   "), []);
  assert.deepEqual(findTools(catalog, 7 as unknown as string), []);
  const padded = `${"zz ".repeat(700)}email colleague`;
  assert.equal(padded.indexOf("email") > 2_000, true);
  assert.deepEqual(findTools(catalog, padded), []);
  assert.equal(findTools(catalog, `email colleague ${"zz ".repeat(700)}`)[0].id, "send_email");
});

test("the kinds asked for: tools and functions by default, skills on request", () => {
  assert.deepEqual(findTools(catalog, "sort and index a BAM file"), []);
  const skills = findTools(catalog, "sort and index a BAM file", { kinds: ["skill"] });
  assert.equal(skills[0].id, "samtools");
  assert.equal(skills[0].kind, "skill");
  assert.equal(skills[0].source, "builtin");
  assert.equal(skills[0].remote, false);
});

test("why: each field's words once, as the query wrote them; the score rounded", () => {
  const [found] = findTools(catalog, "Emails to notify a colleague by mail", { limit: 1 });
  assert.equal(found.id, "send_email");
  assert.equal(found.description, "Send an email message to a colleague");
  assert.equal(found.why, "name: emails; tags: notify, mail; description: colleague");
  assert.equal(found.score, Math.round(found.score * 100) / 100);
  assert.ok(found.score > 0);
});
