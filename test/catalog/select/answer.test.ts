// Reading a model's selection answer (readAnswer, lib/catalog/select/_answer.ts): defaults of absent
// fields, braces and escapes inside strings, trailing commas, the fenced block before the prose,
// an answer after a stray `{`, objects without `skills` or `tools` passed over, the wrong-shape
// message.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readAnswer } from "../../../lib/catalog/select/_answer.ts";

describe("readAnswer", () => {
  test("absent fields take their defaults; complexity is complex or simple", () => {
    assert.deepEqual(readAnswer('{"skills":["a"]}'), {
      complexity: "simple",
      skills: ["a"],
      tools: [],
      needs_external: false,
      reasoning: "",
    });
    assert.equal(readAnswer('{"tools":[],"complexity":"complex"}').complexity, "complex");
    assert.equal(readAnswer('{"tools":[],"complexity":"hard"}').complexity, "simple");
    assert.deepEqual(readAnswer('{"tools":["t"],"extra":1}').skills, []);
  });

  test("braces and escaped quotes inside strings do not end the object", () => {
    const text = 'Sure. {"skills":["a}"],"reasoning":"say \\"}\\" {"} That is all.';
    assert.deepEqual(readAnswer(text), {
      complexity: "simple",
      skills: ["a}"],
      tools: [],
      needs_external: false,
      reasoning: 'say "}" {',
    });
    assert.deepEqual(readAnswer('{"skills":["x"],"nested":{"y":{"z":1}}} trailing').skills, ["x"]);
    assert.deepEqual(readAnswer('He said "x {"skills":["a"]}').skills, ["a"]);
  });

  test("trailing commas are dropped outside strings only", () => {
    assert.deepEqual(readAnswer('{"skills":["a",],"tools":["b" , ],}').skills, ["a"]);
    assert.deepEqual(readAnswer('{"skills":["a,]","b,}",],}').skills, ["a,]", "b,}"]);
    assert.deepEqual(readAnswer('{"skills":["q\\",]"],}').skills, ['q",]']);
  });

  test("a fenced block is read before the prose around it, with or without a language", () => {
    const prose = 'For example {"skills":["wrong"]} would be wrong.\n';
    assert.deepEqual(readAnswer(`${prose}\`\`\`json\n{"skills":["right"]}\n\`\`\``).skills, [
      "right",
    ]);
    assert.deepEqual(readAnswer(`${prose}\`\`\`JSON\n{"skills":["right"]}\`\`\``).skills, [
      "right",
    ]);
    assert.deepEqual(readAnswer(`${prose}\`\`\`{"skills":["right"]}\`\`\``).skills, ["right"]);
    assert.deepEqual(readAnswer(`${prose}\`\`\`  \n {"skills":["right"]} \`\`\``).skills, [
      "right",
    ]);
    // A fence holding no answer: the prose's answer is used.
    assert.deepEqual(readAnswer(`${prose}\`\`\`\nno json\n\`\`\``).skills, ["wrong"]);
  });

  test("objects without skills or tools are passed over; none at all is an error", () => {
    assert.deepEqual(readAnswer('Step {"step":1} then {"skills":["a"]}').skills, ["a"]);
    assert.throws(
      () => readAnswer('{"step":1} and {"unbalanced": [ '),
      (error: Error) =>
        error.message === 'the model\'s answer holds no JSON object with "skills" or "tools"',
    );
    assert.throws(() => readAnswer("no json"), /holds no JSON object/);
    assert.throws(() => readAnswer("{not json}"), /holds no JSON object/);
  });

  test("the wrong shape is reported on one line, the next good object still wins", () => {
    assert.throws(
      () => readAnswer('{"skills":"a"}'),
      (error: Error) =>
        error.message ===
          'the model\'s JSON has the wrong shape (× Invalid type: Expected Array but received "a" → at skills)',
    );
    assert.deepEqual(readAnswer('{"skills":"a"} or rather {"skills":["a"]}').skills, ["a"]);
  });

  test("an answer after a stray `{` in the prose is still read", () => {
    const want = {
      complexity: "simple",
      skills: ["samtools"],
      tools: [],
      needs_external: false,
      reasoning: "",
    };
    assert.deepEqual(readAnswer('Files look like {sample.bam, so: {"skills": ["samtools"]}'), want);
    // An outer object cut off before its end: the whole object inside it is the answer.
    assert.deepEqual(readAnswer('{"answer": {"skills": ["samtools"]}'), want);
    // Nothing whole after the stray `{`: still no answer.
    assert.throws(() => readAnswer('Files look like {sample.bam, {"skills": ['), /holds no JSON/);
  });
});
