// Private: the error family of checking a model's tool-call arguments against a remote input
// schema (_safe_schema.ts, _pattern*.ts). It never leaves the prompt layer: _execute.ts catches
// it and answers the model with its message. `code` says which guard stopped the check.

/** `budget`: the validation ran past its steps or time; `pattern`: a pattern the matcher does not run. */
export type SchemaCheckErrorCode = "budget" | "pattern";

/** The base: a check of arguments against a schema stopped; `message` says what and where. */
export class SchemaCheckError extends Error {
  readonly code: SchemaCheckErrorCode;
  constructor(code: SchemaCheckErrorCode, message: string) {
    super(message);
    this.name = "SchemaCheckError";
    this.code = code;
  }
}

/** A validation stopped after its budget of schema visits or its time. */
export class SchemaBudgetError extends SchemaCheckError {
  declare readonly code: "budget";
  constructor(message: string) {
    super("budget", message);
    this.name = "SchemaBudgetError";
  }
}

/** A pattern the linear-time matcher does not run (lookaround, backreferences, too large). */
export class PatternError extends SchemaCheckError {
  declare readonly code: "pattern";
  constructor(message: string) {
    super("pattern", message);
    this.name = "PatternError";
  }
}
