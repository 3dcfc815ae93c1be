// The linear-time matcher for remote schemas' `pattern`s (lib/prompt/_pattern.ts): the same
// verdict as `new RegExp(pattern, "u").test(text)` (what @cfworker/json-schema runs) on realistic
// and generated patterns, linear work on patterns that freeze a backtracking engine (counted in
// steps, not timed), and a clear PatternError for what it does not run.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compilePattern, MAX_PROGRAM, PatternError } from "../../lib/prompt/_pattern.ts";

/** Compare with the native engine (u-mode, or non-u for the lenient spellings). */
function agree(pattern: string, texts: readonly string[], flags = "u"): void {
  const native = new RegExp(pattern, flags);
  const ours = compilePattern(pattern);
  for (const text of texts) {
    assert.equal(
      ours.test(text),
      native.test(text),
      `${JSON.stringify(pattern)} on ${JSON.stringify(text)}`,
    );
  }
}

const REALISTIC: [string, string[]][] = [
  [
    "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
    ["bob@example.com", "a.b+c@x.co", "bob@", "@x.com", "bob@x.c", "b ob@x.com", "Bob@EXAMPLE.org"],
  ],
  [
    "^(https?|ftp)://[^\\s/$.?#].[^\\s]*$",
    ["https://example.com/a?b=c", "ftp://x.y", "http:/x", "https://", "https://a b", "mailto:x"],
  ],
  [
    "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
    ["1.2.3", "0.0.0-alpha.1+build.5", "01.2.3", "1.2", "1.2.3-", "10.20.30-rc.1", "1.2.3+x..y"],
  ],
  [
    "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$",
    ["2024-02-29", "2024-13-01", "2024-00-10", "24-01-01", "2024-1-01", "2024-12-31x"],
  ],
  [
    "^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
    ["123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-62d3-a456-426614174000", "xyz", ""],
  ],
  ["^#?([a-fA-F0-9]{6}|[a-fA-F0-9]{3})$", ["#fff", "abcdef", "#abcd", "#GGG", "ABC123"]],
  ["^[A-Za-z_$][A-Za-z0-9_$]*$", ["_x1", "$", "1x", "a-b", "validName"]],
  ["^[a-z0-9]+(?:-[a-z0-9]+)*$", ["my-slug-1", "-x", "x-", "a--b", "abc"]],
  [
    "^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$",
    ["192.168.0.1", "256.1.1.1", "1.2.3", "0.0.0.0", "01.2.3.4"],
  ],
  ["^\\+?[1-9]\\d{1,14}$", ["+14155552671", "0123", "+1", "123456789012345678"]],
  ["^\\p{Lu}\\p{Ll}+$", ["Émile", "émile", "Zoë", "Ab1"]],
  ["^[^\\s@]+@[^\\s@]+$", ["a@b", "a @b", "a@b@c"]],
  ["\\d", ["abc", "a1c", "٣"]],
  ["foo|bar", ["xfoox", "baz", "ba", "BAR"]],
  ["\\bcat\\b", ["a cat!", "concat", "cat", "cats"]],
  ["\\Bcat", ["concat", "cat"]],
  ["^.{3}$", ["abc", "a\nb", "😀😀😀", "ab"]],
  ["^[\\u0041-\\u005A]+$", ["ABC", "abc"]],
  ["^\\u{1F600}+$", ["😀😀", "😁"]],
  ["^\\uD83D\\uDE00$", ["😀", "\uD83D"]],
  ["^[😀-😂]$", ["😁", "😃"]],
  ["^\\x41\\t\\n\\0\\cJ$", ["A\t\n\0\n", "A\t\n0\n"]],
  ["^[\\w.-]+$", ["a.b-c_d", "a b"]],
  ["^[\\d\\s]*$", ["1 2\u00a03\u2028", "1x"]],
  ["^(?:a|b)*?c??$", ["abab", "ababc", "abcc"]],
  ["^a{2,}$", ["a", "aa", "aaaaa"]],
  ["^a{0}b$", ["b", "ab"]],
  ["^(a|)+$", ["", "aaa", "b"]],
  ["^(a*)*$", ["", "aaa", "ab"]],
  ["$^", ["", "x"]],
  ["^[^]$", ["\n", ""]],
  ["^[]$", ["", "a"]],
  ["^\\/path\\/[a-z]+$", ["/path/abc", "path/abc"]],
];

describe("the matcher gives the native u-mode verdict", () => {
  test("realistic schema patterns (email, uri, semver, date, uuid, hex, identifiers…)", () => {
    for (const [pattern, texts] of REALISTIC) agree(pattern, texts);
  });

  test("300 generated patterns × 30 strings each", () => {
    let seed = 27;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return (seed >>> 12) % n; // the high bits: the low ones of this generator cycle fast
    };
    const pick = <T>(items: readonly T[]) => items[random(items.length)];
    const ATOMS = [
      "a",
      "b",
      "c",
      "1",
      "-",
      " ",
      "é",
      "😀",
      ".",
      "\\d",
      "\\w",
      "\\s",
      "\\D",
      "\\W",
      "\\S",
      "[ab]",
      "[^a]",
      "[a-c1]",
      "[^\\d😀]",
      "[.-]",
      "\\.",
      "\\u0061",
      "\\u{1F600}",
      "\\p{L}",
    ];
    const QUANTIFIERS = [
      "",
      "",
      "",
      "*",
      "+",
      "?",
      "*?",
      "+?",
      "??",
      "{2}",
      "{1,}",
      "{0,2}",
      "{1,3}?",
    ];
    const pattern = (depth: number): string => {
      const parts: string[] = [];
      for (let n = 1 + random(3); n > 0; n--) {
        const roll = random(10);
        const atom = roll === 0 && depth < 3
          ? `${pick(["(", "(?:", "(?<g>"])}${pattern(depth + 1)})`
          : roll === 1
          ? pick(["^", "$", "\\b", "\\B"])
          : pick(ATOMS);
        parts.push(atom + (/^[\^$]|^\\[bB]$/.test(atom) ? "" : pick(QUANTIFIERS)));
      }
      return parts.join("") + (random(6) === 0 ? `|${pattern(depth + 1)}` : "");
    };
    const ALPHABET = ["a", "b", "c", "1", "-", " ", "é", "😀", ".", "\n", "_", "\uD83D"];
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const p = pattern(0).replace(/\(\?<g>(.*)\(\?<g>/, "(?<g>$1(?:"); // names unique
      const texts = Array.from(
        { length: 30 },
        () => Array.from({ length: random(9) }, () => pick(ALPHABET)).join(""),
      );
      agree(p, texts);
      checked += texts.length;
    }
    assert.equal(checked, 9_000);
  });

  test("\\s \\w \\d and . on every code point", () => {
    for (const cls of ["\\s", "\\S", "\\w", "\\d", "."]) {
      const native = new RegExp(`^${cls}$`, "u");
      const ours = compilePattern(`^${cls}$`);
      for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x10000 ? 1 : 97) {
        const text = String.fromCodePoint(cp);
        if (ours.test(text) !== native.test(text)) assert.fail(`${cls} on U+${cp.toString(16)}`);
      }
    }
  });

  test("the search is unanchored: a pattern matches anywhere unless ^ or $ say otherwise", () => {
    assert.equal(compilePattern("b+").test("aaabbbccc"), true);
    assert.equal(compilePattern("^b+").test("aaabbbccc"), false);
    assert.equal(compilePattern("c$").test("abc"), true);
    assert.equal(compilePattern("").test("anything"), true);
  });

  test("spellings u-mode rejects but RE2 read as literals: \\- \\: \\@, a lone { } ]", () => {
    for (const p of ["^a\\-b$", "^\\:\\@\\#\\~$", "^x{a}$", "^a}b]$", "^a{,2}$"]) {
      assert.throws(() => new RegExp(p, "u"));
      agree(p, ["a-b", ":@#~", "x{a}", "a}b]", "a{,2}", "aa", "-", "ab"], "");
    }
  });
});

describe("linear work, whatever the pattern", () => {
  const PATHOLOGICAL: [string, string, boolean][] = [
    ["^(a+)+$", `${"a".repeat(100_000)}!`, false],
    ["(a|a)*b", "a".repeat(100_000), false],
    ["^(a*)*b$", "a".repeat(100_000), false],
    ["(x+x+)+y", "x".repeat(100_000), false],
    ["^(.*a){20}$", "a".repeat(100_000), true],
    ["^(\\w+\\s?)*$", `${"word ".repeat(20_000)}!`, false],
    ["^(([a-z])+.)+[A-Z]([a-z])+$", "a".repeat(100_000), false],
  ];
  for (const [pattern, text, verdict] of PATHOLOGICAL) {
    test(`${pattern} on 100 kB: steps grow with the input times the program, no more`, () => {
      const m = compilePattern(pattern);
      assert.equal(m.test(text), verdict);
      const big = m.steps;
      assert.ok(big <= 4 * (text.length + 1) * m.size, `${big} steps for ${m.size} instructions`);
      assert.equal(m.test(text.slice(-10_000)), verdict);
      const ratio = big / m.steps;
      assert.ok(ratio > 8 && ratio < 12, `100 kB took ${ratio.toFixed(2)}× the steps of 10 kB`);
    });
  }
});

test("past maxSteps the matcher stops and says so (undefined), whatever the verdict would be", () => {
  const m = compilePattern("[a-z]{0,3000}!");
  assert.equal(m.test("a".repeat(100_000), 1_000_000), undefined);
  assert.equal(m.steps, 1_000_001);
  assert.equal(m.test("abc!", 1_000_000), true);
});

describe("what the matcher does not run is a PatternError that says what and where", () => {
  const REFUSED: [string, RegExp][] = [
    ["^(?=a)a", /lookaround is not supported at offset 1/],
    ["(?!a)", /lookaround/],
    ["(?<=a)b", /lookaround/],
    ["(?<!a)b", /lookaround/],
    ["(a)\\1", /backreferences are not supported at offset 4/],
    ["(?<n>a)\\k<n>", /named backreferences are not supported/],
    ["(?i:a)", /unsupported group/],
    ["(a{1000}){1000}", new RegExp(`over ${MAX_PROGRAM} instructions`)],
    ["(".repeat(500) + ")".repeat(500), /nested deeper than 100/],
    ["a**", /nothing to repeat at offset 2/],
    ["[z-a]", /range out of order/],
    ["[\\d-z]", /class escape in a range/],
    ["(ab", /unterminated group/],
    ["ab)", /unmatched \)/],
    ["[ab", /unterminated character class/],
    ["\\q", /unknown escape \\q/],
    ["\\p{Nope}", /unknown Unicode property Nope/],
    ["\\pL{Lu}", /bad \\p\{…\} escape/],
    ["\\x4", /bad hexadecimal escape/],
    ["\\xZ1", /bad hexadecimal escape/],
    ["\\x1Z", /bad hexadecimal escape/],
    ["\\u12", /bad hexadecimal escape/],
    ["\\u{12", /bad \\u\{…\} escape/],
    ["\\01", /unknown escape \\0 at offset 1/],
    ["\\u{Z1}", /bad \\u\{…\} escape/],
    ["\\u{1Z}", /bad \\u\{…\} escape/],
    ["\\u{110000}", /bad \\u\{…\} escape/],
    ["[a-", /unterminated character class/],
    ["[a-\\d]", /class escape in a range/],
    ["\\xZZ", /bad hexadecimal escape/],
    ["a\\", /unexpected end at offset 2/],
    ["\\c", /unknown escape \\c at offset 1/],
    ["\\pL", /bad \\p\{…\} escape/],
    ["a{3,1}", /numbers out of order in \{\} quantifier/],
    ["{2}a", /nothing to repeat at offset 0/],
    ["(?<>a)", /bad group name/],
  ];
  for (const [pattern, message] of REFUSED) {
    test(JSON.stringify(pattern), () => {
      assert.throws(() => compilePattern(pattern), (e: Error) => {
        assert.ok(e instanceof PatternError, String(e));
        assert.match(e.message, message);
        return true;
      });
    });
  }
});

test("a program may hold MAX_PROGRAM instructions, not one more", () => {
  // n literal characters: n CHAR instructions and the MATCH one.
  const full = compilePattern("a".repeat(MAX_PROGRAM - 1));
  assert.equal(full.size, MAX_PROGRAM);
  assert.equal(full.test(`x${"a".repeat(MAX_PROGRAM - 1)}`), true);
  assert.throws(
    () => compilePattern("a".repeat(MAX_PROGRAM)),
    (e: Error) =>
      e instanceof PatternError && e.message.includes(`over ${MAX_PROGRAM} instructions`),
  );
});

test("groups may nest 100 deep, not 101", () => {
  const nested = (n: number) => `${"(".repeat(n)}a${")".repeat(n)}`;
  agree(nested(100), ["a", "b"]);
  assert.throws(() => compilePattern(nested(101)), /groups nested deeper than 100 at offset 101/);
});

test("U+FFFF is one code unit and NUL is a character, in the pattern and in the text", () => {
  agree("^\uffffb$", ["\uffffb", "\uffffc", "\uffff", "b"]);
  agree("a\u0000b", ["a\u0000b", "ab", "a\u0000"]);
  agree("a$", ["a\u0000", "a"]);
  agree("\\b\u0000", ["\u0000", "a\u0000"]);
});

test("steps count every instruction visited and every character tested", () => {
  // "a" on "a": at 0 the CHAR is visited (1) and tested (2); at 1 the CHAR again (3), then MATCH (4).
  const m = compilePattern("a");
  assert.equal(m.test("a"), true);
  assert.equal(m.steps, 4);
  assert.equal(m.test("a", 3), undefined, "the fourth step is over a budget of 3");
});

test("\\P{…} is the complement, and a property may name its value (Script=Greek)", () => {
  agree("^\\P{L}+$", ["123", "a1", "", "é"]);
  agree("^\\p{Script=Greek}+$", ["αβγ", "abc", "αb"]);
  agree("^[\\P{Ll}]$", ["A", "a"]);
});

test("[\\b] is a backspace; \\0 is NUL, also at the end of the pattern", () => {
  agree("^[\\b]$", ["\b", "b", "\\"]);
  agree("a\\0", ["a\u0000", "a0", "a"]);
});

test("\\uXXXX pairs: a lead and a trail escape are one code point, anything else stays apart", () => {
  agree("^\\ud83d\\ude00$", ["😀", "\ud83d", "\ud83d\ude00x"]);
  agree("^\\ud800\\udc00$", ["\u{10000}", "\ud800"]);
  agree("^\\udbff\\udfff$", ["\u{10ffff}", "\udbff"]);
  agree("^\\u0041\\udc00$", ["A\udc00", "A"]);
  agree("^\\udc00\\udc00$", ["\udc00\udc00", "\udc00"]);
  agree("^\\ud83dx$", ["\ud83dx", "x"]);
  agree("^\\ud83dx\\ude00$", ["\ud83dx\ude00", "😀"]);
  agree("^\\u{10FFFF}$", ["\u{10ffff}", "a"]);
});

test("classes: a NUL is a member, a trailing - is literal, a-a is one letter, U+0080 is not ASCII", () => {
  agree("^[\u0000a]$", ["\u0000", "a", "b"]);
  agree("^[a-]$", ["a", "-", "b"]);
  agree("^[a-a]$", ["a", "b"]);
  agree("^[\\u0080-\\u00ff]$", ["\u0080", "ÿ", "a"]);
});
