// Private: collects the diagnostics of one parse and turns them into errors.

import type { SkillDiagnostic } from "./types.ts";
import { SkillParseError, type SkillParseErrorCode } from "./errors.ts";
import { formatSkillLocation } from "./_location.ts";

/** Where a problem is: a 1-based line of the original text and a field. */
export interface At {
  line?: number;
  field?: string;
}

/** Collects diagnostics; in strict mode every warning counts as an error. */
export class Report {
  /** The skill name used in messages, once known. */
  skill: string | undefined;
  readonly source: string | undefined;
  readonly strict: boolean;
  readonly diagnostics: SkillDiagnostic[] = [];

  constructor(source: string | undefined, strict: boolean, skill?: string) {
    this.source = source;
    this.strict = strict;
    this.skill = skill;
  }

  /** Records a problem that a lenient parse tolerates. */
  warn(detail: string, at: At = {}): void {
    this.#add(this.strict ? "error" : "warning", detail, at);
  }

  /** Records a problem that fails the parse once all problems are collected. */
  error(detail: string, at: At = {}, cause?: unknown): void {
    this.#add("error", detail, at, cause);
  }

  /** Records a problem and fails the parse at once: the text cannot be read as a skill. */
  fail(
    detail: string,
    at: At = {},
    cause?: unknown,
    code: SkillParseErrorCode = "syntax",
  ): never {
    this.#add("error", detail, at, cause);
    throw this.#error(detail, at, cause, code);
  }

  /** Throws the first error found, with every diagnostic attached, if there is one. */
  finish(): void {
    const errors = this.diagnostics.filter((d) => d.severity === "error");
    const first = errors[0];
    if (first === undefined) return;
    const more = errors.length - 1;
    const { detail, cause } = origins.get(first) ?? { detail: first.message };
    throw this.#error(
      more === 0 ? detail : `${detail} (and ${more} more ${more === 1 ? "error" : "errors"})`,
      { line: first.line, field: first.field },
      cause,
      "invalid",
    );
  }

  #add(severity: "error" | "warning", detail: string, at: At, cause?: unknown): void {
    const d: SkillDiagnostic = {
      severity,
      message: `Skill${formatSkillLocation(this.skill, this.source, at.line)}: ${detail}`,
    };
    if (this.skill !== undefined) d.skill = this.skill;
    if (this.source !== undefined) d.source = this.source;
    if (at.line !== undefined) d.line = at.line;
    if (at.field !== undefined) d.field = at.field;
    origins.set(d, { detail, cause });
    this.diagnostics.push(d);
  }

  #error(detail: string, at: At, cause: unknown, code: SkillParseErrorCode): SkillParseError {
    return new SkillParseError(detail, {
      code,
      skill: this.skill,
      source: this.source,
      line: at.line,
      field: at.field,
      diagnostics: this.diagnostics,
      cause,
    });
  }
}

/** The bare detail and cause of each diagnostic, to build the thrown error from. */
const origins = new WeakMap<SkillDiagnostic, { detail: string; cause?: unknown }>();
