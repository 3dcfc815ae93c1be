// The CLI in a terminal, as a person uses it: a child process in a pseudo-terminal (see _pty.ts)
// against server-everything (Streamable HTTP). The progress line is drawn in place (real
// `CR ESC [K`, not the escaped text); the elicitation form asks field by field, re-asks on bad
// input and sends the answers; Ctrl-C cancels a call, also in the middle of the form.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startEverything, type TestServer } from "../mcp/_servers.ts";
import { cli, tempHome } from "./_helpers.ts";
import { inTerminal } from "./_pty.ts";

let home: Awaited<ReturnType<typeof tempHome>>;
let everything: TestServer;

before(async () => {
  [home, everything] = await Promise.all([tempHome(), startEverything("streamableHttp")]);
  assert.equal(
    (await cli(["mcp", "add", everything.url, "--name", "everything"], home.env)).code,
    0,
  );
  assert.equal((await cli(["approve", "--all"], home.env)).code, 0);
});
after(async () => {
  await everything.close();
  await home.close();
});

test("call's progress line is redrawn in place on a terminal, and cleared at the end", async () => {
  const result = await inTerminal(
    ["call", "everything__trigger-long-running-operation", '{"duration":2,"steps":4}'],
    [],
    home.env,
  );
  assert.equal(result.code, 0, result.output);
  const line = "everything__trigger-long-running-operation";
  assert.match(result.output, new RegExp(`\r\x1b\\[K${line}: 1/4 \\(25%\\)`));
  assert.match(result.output, new RegExp(`\r\x1b\\[K${line}: 4/4 \\(100%\\)`));
  assert.doesNotMatch(result.output, /\\u001b|\\u000d/, "the codes were written out as text");
  // Cleared before the result is printed: the result starts on a clean line.
  assert.match(result.output, new RegExp("\r\x1b\\[K(\r\n)?Long running operation completed"));
});

test("the elicitation form: field by field, bad input asked again, the answers sent", async () => {
  const result = await inTerminal(["call", "everything__trigger-elicitation-request"], [
    { expect: '"everything" asks: Please provide inputs' },
    { expect: "Answer\\? \\[Y = yes", send: "\r" },
    { expect: "name \\(string\\): ", send: "\r" }, // required: asked again
    { expect: "required[\\s\\S]*name \\(string\\): ", send: "Ada Lovelace\r" },
    { expect: "check \\(y/n\\): ", send: "maybe\r" },
    { expect: "answer y or n[\\s\\S]*check \\(y/n\\): ", send: "y\r" },
    { expect: "firstLine \\(string\\) \\[It was a dark and stormy night.\\]: ", send: "\r" },
    { expect: "email \\(string, email\\): ", send: "not-an-email\r" },
    { expect: "not an email[\\s\\S]*email \\(string, email\\): ", send: "ada@example.org\r" },
    { expect: "homepage \\(string, uri\\): ", send: "\r" },
    { expect: "birthdate \\(string, date\\): ", send: "1815-12-10\r" },
    { expect: "integer \\(integer\\) \\[42\\]: ", send: "500\r" },
    { expect: "at most 100[\\s\\S]*integer \\(integer\\) \\[42\\]: ", send: "7\r" },
    { expect: "number \\(number\\) \\[3.14\\]: ", send: "\r" },
    {
      expect: "3\\) Joey[\\s\\S]*untitledSingleSelectEnum \\(a number\\) \\[Monica\\]: ",
      send: "3\r",
    },
    { expect: "untitledMultipleSelectEnum \\(numbers, comma-separated\\)", send: "1,2\r" },
    { expect: "2\\) Green Lantern[\\s\\S]*titledSingleSelectEnum \\(a number\\)", send: "2\r" },
    { expect: "titledMultipleSelectEnum", send: "\r" },
    { expect: "2\\) Dogs[\\s\\S]*legacyTitledEnum \\(a number\\)", send: "2\r" },
    { expect: 'Send these answers to "everything"\\? \\[Y/n\\] ', send: "\r" },
  ], home.env);
  assert.equal(result.missed, null, result.output);
  assert.equal(result.code, 0, result.output);
  assert.match(result.output, /User provided the requested information/);
  assert.match(result.output, /- Name: Ada Lovelace/);
  assert.match(result.output, /- Agreed to terms: true/);
  assert.match(result.output, /- Email: ada@example.org/);
  assert.match(result.output, /- Favorite Integer: 7/);
  // The server echoes what it received: the choices went as their values.
  const raw = JSON.parse(
    result.output.slice(result.output.indexOf("Raw result: ") + 12).replace(/\r\n/g, "\n"),
  );
  assert.equal(raw.content.untitledSingleSelectEnum, "Joey");
  assert.deepEqual(raw.content.untitledMultipleSelectEnum, ["Guitar", "Piano"]);
  assert.equal(raw.content.titledSingleSelectEnum, "hero-2");
  assert.deepEqual(raw.content.titledMultipleSelectEnum, ["fish-1"]);
  assert.equal(raw.content.legacyTitledEnum, "pet-2");
  assert.equal(raw.content.homepage, undefined, "an optional field left empty is left out");
});

test("declining the form says so to the server", async () => {
  const result = await inTerminal(["call", "everything__trigger-elicitation-request"], [
    { expect: "Answer\\? \\[Y = yes", send: "n\r" },
  ], home.env);
  assert.equal(result.code, 0, result.output);
  assert.match(result.output, /User declined to provide the requested information/);
});

test("Ctrl-C cancels a call: during its progress, and in the middle of the form", async () => {
  const running = await inTerminal(
    ["call", "everything__trigger-long-running-operation", '{"duration":60,"steps":60}'],
    [{ expect: ": 1/60 \\(2%\\)", send: "\x03" }],
    home.env,
  );
  assert.equal(running.missed, null, running.output);
  assert.equal(running.code, 130, running.output);
  assert.match(running.output, /"everything__trigger-long-running-operation" cancelled/);
  const asking = await inTerminal(["call", "everything__trigger-elicitation-request"], [
    { expect: "Answer\\? \\[Y = yes", send: "\r" },
    { expect: "name \\(string\\): ", send: "\x03" },
  ], home.env);
  assert.equal(asking.missed, null, asking.output);
  assert.equal(asking.code, 130, asking.output);
  assert.match(asking.output, /"everything__trigger-elicitation-request" cancelled/);
});
