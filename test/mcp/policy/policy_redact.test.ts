// Secret redaction: plain, Bearer, URL-encoded and JSON-escaped forms; a property that no
// secret survives outside the markers.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { redact, REDACTED } from "../../../lib/mcp/policy/redact.ts";

const KEY = "sk-live/abc+123=";

test("plain occurrences, every one of them", () => {
  assert.equal(
    redact(`key ${KEY} and again ${KEY}.`, [KEY]),
    `key ${REDACTED} and again ${REDACTED}.`,
  );
});

test("the Bearer form, for a known key and for any token", () => {
  assert.equal(redact(`Authorization: Bearer ${KEY}`, [KEY]), `Authorization: Bearer ${REDACTED}`);
  assert.equal(redact("sent bearer eyJhbGciOi.J9.abc_-x", []), `sent bearer ${REDACTED}`);
  assert.equal(redact("expected Bearer token", []), "expected Bearer token");
});

test("URL-encoded forms (upper- and lower-case hex, + for spaces) and JSON-escaped forms", () => {
  const encoded = encodeURIComponent(KEY);
  assert.equal(encoded, "sk-live%2Fabc%2B123%3D");
  assert.equal(redact(`GET /mcp?key=${encoded}`, [KEY]), `GET /mcp?key=${REDACTED}`);
  assert.equal(redact(`GET /mcp?key=${encoded.toLowerCase()}`, [KEY]), `GET /mcp?key=${REDACTED}`);
  assert.equal(redact("q=my+pass+phrase", ["my pass phrase"]), `q=${REDACTED}`);
  assert.equal(redact('{"key":"a\\"quoted\\\\key"}', ['a"quoted\\key']), `{"key":"${REDACTED}"}`);
});

test("overlapping secrets collapse into one marker; short secrets are ignored", () => {
  assert.equal(redact("xxabcdefxx", ["abcd", "cdef"]), `xx${REDACTED}xx`);
  assert.equal(redact("abc is short", ["abc", ""]), "abc is short");
  assert.equal(redact("nothing here", []), "nothing here");
});

test("a secret that is part of the marker does not loop or leak", () => {
  assert.equal(redact("reda dact", ["reda", "dact"]), `${REDACTED} ${REDACTED}`);
  assert.equal(redact(redact("x sk-123456 y", ["sk-123456"]), ["sk-123456"]), `x ${REDACTED} y`);
});

test("property: no secret (or its URL-encoded form) remains outside the markers", () => {
  const char = fc.constantFrom(...'abAB01 -_/+=%:"\\é😀\n');
  const secret = fc.string({ unit: char, minLength: 4, maxLength: 12 });
  fc.assert(
    fc.property(
      fc.array(secret, { minLength: 1, maxLength: 4 }),
      fc.array(fc.oneof(fc.string({ unit: char, maxLength: 8 }), fc.nat(20)), { maxLength: 12 }),
      (secrets, parts) => {
        const forms = (
          s: string,
        ) => [s, encodeURIComponent(s), `Bearer ${s}`, JSON.stringify(s).slice(1, -1)];
        const text = parts.map((p) =>
          typeof p === "number" ? forms(secrets[p % secrets.length])[p % 4] : p
        ).join("");
        const out = redact(text, secrets);
        for (const segment of out.split(REDACTED)) {
          for (const s of secrets) {
            assert.ok(!segment.includes(s), `${JSON.stringify(s)} left in ${JSON.stringify(out)}`);
            assert.ok(
              !segment.includes(encodeURIComponent(s)),
              `encoded ${JSON.stringify(s)} left in ${out}`,
            );
          }
        }
      },
    ),
    { numRuns: 1000 },
  );
});

describe("markers and edges", () => {
  test('the marker is "[redacted]"', () => {
    assert.equal(redact("key sk-123456", ["sk-123456"]), "key [redacted]");
  });

  test("a Bearer token after several spaces or a tab is caught", () => {
    assert.equal(redact("Bearer   abcdefgh123", []), "Bearer   [redacted]");
    assert.equal(redact("bearer\tabcdefgh123", []), "bearer\t[redacted]");
  });

  test("secrets that touch end to end become one marker", () => {
    assert.equal(redact("<abcdwxyz>", ["abcd", "wxyz"]), "<[redacted]>");
  });

  test("a secret that is not a string is ignored", () => {
    assert.equal(redact("id 123456", [123456 as unknown as string]), "id 123456");
  });
});
