// Private: the values of a plan — given, default or fixed — checked against each input's
// format and choices, `{variable}` templates filled, and the arguments of a package resolved
// in order. Nothing here reaches a shell: every argument stays one word.

import { DirectoryError } from "./errors.ts";
import { argumentName, type Requirement } from "./requirements.ts";
import type { ServerArgument, ServerInput } from "./server_json.ts";

/** What a plan collects while it resolves values. */
export interface ValueChoices {
  /** The values given by the caller, by name. */
  given: Readonly<Record<string, string>>;
  /** Required values that were not given (and have no default). */
  missing: Requirement[];
  /** Names whose values are secrets. */
  secretNames: Set<string>;
  /** Given names that some input used (the rest are unknown). */
  used: Set<string>;
  /** The server, for messages. */
  server: string;
}

/** `value` checked for a line break or NUL, its format and its choices. */
export function checkValue(
  name: string,
  value: string,
  input: ServerInput,
  server: string,
): string {
  const refuse = (why: string) =>
    new DirectoryError("invalid", `${server}: the value of ${name} ${why}`, {
      field: name,
      server,
    });
  if (/[\0\r\n]/.test(value)) throw refuse("contains a line break or NUL");
  if (input.choices?.length && !input.choices.includes(value)) {
    throw refuse(`must be one of ${input.choices.join(", ")} (got "${value.slice(0, 60)}")`);
  }
  if (input.format === "number" && !/^-?\d+(\.\d+)?$/.test(value)) throw refuse("must be a number");
  if (input.format === "boolean" && value !== "true" && value !== "false") {
    throw refuse('must be "true" or "false"');
  }
  return value;
}

/** The value of input `name`: given, else default; `undefined` (and noted missing if required). */
export function valueOf(
  name: string,
  kind: Requirement["kind"],
  input: ServerInput,
  r: ValueChoices,
): string | undefined {
  if (input.isSecret) r.secretNames.add(name);
  const given = Object.hasOwn(r.given, name) ? r.given[name] : undefined;
  if (given !== undefined) r.used.add(name);
  const value = given ?? input.default;
  if (value === undefined) {
    if (input.isRequired && !r.missing.some((m) => m.name === name)) {
      r.missing.push({
        name,
        kind,
        required: true,
        secret: input.isSecret === true,
        ...(input.description ? { description: input.description } : {}),
        ...(input.choices?.length ? { choices: input.choices } : {}),
        ...(input.placeholder ? { placeholder: input.placeholder } : {}),
      });
    }
    return undefined;
  }
  return checkValue(name, value, input, r.server);
}

/**
 * `template` with each `{name}` of `variables` filled (by `encode` when given); an unknown
 * `{name}` stays, as the schema says. `undefined` when a variable has no value.
 */
export function fill(
  template: string,
  variables: Record<string, ServerInput> | undefined,
  r: ValueChoices,
  encode: (value: string) => string = (v) => v,
  secret = false,
): string | undefined {
  let complete = true;
  const out = template.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
    const spec = variables?.[name];
    if (spec === undefined) return whole;
    const value = valueOf(name, "variable", { ...spec, isSecret: spec.isSecret || secret }, r);
    if (value === undefined) {
      complete = false;
      return whole;
    }
    return encode(value);
  });
  return complete ? out : undefined;
}

/** Whether an argument (or a variable of its value) is a secret. */
export function isSecretArgument(arg: ServerArgument): boolean {
  return arg.isSecret === true || Object.values(arg.variables ?? {}).some((v) => v.isSecret);
}

const FLAG = /^-{1,2}[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The words of one argument (none when it has no value and is not required). */
export function argumentWords(arg: ServerArgument, r: ValueChoices, field: string): string[] {
  if (arg.type === "named" && !FLAG.test(arg.name)) {
    throw new DirectoryError(
      "refused",
      `${r.server}: ${field}.name ${JSON.stringify(arg.name.slice(0, 60))} is not a flag ` +
        `(expected --name or -n)`,
      { field: `${field}.name`, server: r.server },
    );
  }
  const value = arg.value !== undefined
    ? fill(arg.value, arg.variables, r, undefined, arg.isSecret)
    : valueOf(argumentName(arg), "argument", arg, r);
  if (value === undefined) return [];
  if (arg.value !== undefined) checkValue(argumentName(arg) || field, value, {}, r.server);
  if (arg.type === "positional") return [value];
  if (arg.format === "boolean" && arg.value === undefined) {
    return value === "true" ? [arg.name] : [];
  }
  return [arg.name, value];
}
