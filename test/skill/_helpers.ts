// Shared helpers of the skill tests (not a test file).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  isSkillParseError,
  parseSkill,
  type ParseSkillOptions,
  type SkillParseError,
} from "../../lib/skill/mod.ts";

/** The text of a file under test/fixtures/skills/. */
export function fixture(path: string): Promise<string> {
  return readFile(new URL(`../fixtures/skills/${path}`, import.meta.url), "utf8");
}

/** Parses `text`, asserts it fails with a SkillParseError and returns the error. */
export async function parseError(
  text: string,
  options?: ParseSkillOptions,
): Promise<SkillParseError> {
  try {
    await parseSkill(text, options);
  } catch (error) {
    assert.ok(isSkillParseError(error), `expected a SkillParseError, got ${error}`);
    return error;
  }
  assert.fail("expected parseSkill to throw");
}

/** A minimal valid front matter followed by `extra` lines. */
export function skillText(extra = "", body = ""): string {
  return `---\nname: demo\ndescription: Demo skill. Use when testing.\n${extra}---\n${body}`;
}

/** A skill without its digest, for comparisons across texts. */
export function withoutDigest<T extends { digest: string }>(skill: T): Omit<T, "digest"> {
  const { digest: _digest, ...rest } = skill;
  return rest;
}
