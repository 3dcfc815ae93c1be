/**
 * What an MCP registry entry needs before it can run: its ways to run (a remote, a package, a
 * command line) and, for each, the values to give — environment variables, headers, URL
 * variables and arguments — with whether each is required or secret, its default and choices.
 *
 * @module
 */

import type { KeyValueInput, ServerArgument, ServerInput, ServerPackage } from "./server_json.ts";
import type { DirectoryEntry } from "./types.ts";

/** One value a way to run needs (or may take). */
export interface Requirement {
  /** The name to give it by (`--set NAME=value` on the CLI): an env var, header, URL variable or argument. */
  name: string;
  /** Where it goes. */
  kind: "env" | "header" | "variable" | "argument";
  /** What it is for. */
  description?: string;
  /** Must be given (no default). */
  required: boolean;
  /** A password or token: asked without echo, stored as a secret, never shown. */
  secret: boolean;
  /** The value used when none is given. */
  default?: string;
  /** The values allowed. */
  choices?: string[];
  /** `string`, `number`, `boolean` or `filepath`. */
  format?: string;
  /** An example. */
  placeholder?: string;
}

/** One way to run an entry. */
export interface LaunchOption {
  /** Its index in {@linkcode launchOptions}' list (`--option <n>` on the CLI). */
  index: number;
  /** A hosted server, a package run through its runtime, or a command line. */
  kind: "remote" | "package" | "command";
  /** How it runs, in a word: `remote`, `npx`, `uvx`, `docker`, `dnx`, `mcpb` or the command. */
  runs: string;
  /** One line: what it is (`npm @scope/pkg 1.2.0`, `streamable-http https://…`). */
  label: string;
  /** Whether skillmux can run it; when not, `why`. */
  supported: boolean;
  /** Why it cannot run. */
  why?: string;
  /** The values it needs or takes. */
  needs: Requirement[];
}

const RUNTIME: Record<string, string> = {
  npm: "npx",
  pypi: "uvx",
  nuget: "dnx",
  oci: "docker",
  mcpb: "mcpb",
};

function requirement(
  name: string,
  kind: Requirement["kind"],
  input: ServerInput,
): Requirement {
  return {
    name,
    kind,
    ...(input.description ? { description: input.description } : {}),
    required: input.isRequired === true && input.default === undefined,
    secret: input.isSecret === true,
    ...(input.default !== undefined ? { default: input.default } : {}),
    ...(input.choices?.length ? { choices: [...input.choices] } : {}),
    ...(input.format && input.format !== "string" ? { format: input.format } : {}),
    ...(input.placeholder ? { placeholder: input.placeholder } : {}),
  };
}

/**
 * The name an argument is given by: its valueHint, or its flag without dashes.
 *
 * @example
 * ```ts
 * import { argumentName } from "@skillmux/core/directory";
 * console.log(argumentName({ type: "named", name: "--port" })); // "port"
 * console.log(argumentName({ type: "positional", valueHint: "target_dir" })); // "target_dir"
 * ```
 */
export function argumentName(arg: ServerArgument): string {
  return arg.type === "named" ? arg.name.replace(/^-+/, "") : arg.valueHint ?? "";
}

/** The values of a key-value input or argument: its variables when it has a fixed value, else itself. */
function inputsOf(
  input: ServerInput & { variables?: Record<string, ServerInput> },
  name: string,
  kind: Requirement["kind"],
): Requirement[] {
  if (input.value !== undefined) {
    return Object.entries(input.variables ?? {}).map(([v, spec]) =>
      requirement(v, "variable", { ...spec, isSecret: spec.isSecret || input.isSecret })
    );
  }
  return [requirement(name, kind, input)];
}

function argumentNeeds(args: readonly ServerArgument[] | undefined): Requirement[] {
  return (args ?? []).flatMap((arg) => inputsOf(arg, argumentName(arg), "argument"));
}

function keyValueNeeds(list: readonly KeyValueInput[] | undefined, kind: "env" | "header") {
  return (list ?? []).flatMap((kv) => inputsOf(kv, kv.name, kind));
}

/** Requirements listed once per name (the first wins). */
function unique(list: Requirement[]): Requirement[] {
  const seen = new Set<string>();
  return list.filter((r) => r.name !== "" && !seen.has(r.name) && seen.add(r.name));
}

function packageOption(pkg: ServerPackage, index: number): LaunchOption {
  const runs = RUNTIME[pkg.registryType];
  const version = pkg.version ? ` ${pkg.version}` : "";
  const transport = pkg.transport.type === "stdio" ? "" : ` (${pkg.transport.type})`;
  const needs = unique([
    ...argumentNeeds(pkg.runtimeArguments),
    ...argumentNeeds(pkg.packageArguments),
    ...keyValueNeeds(pkg.environmentVariables, "env"),
  ]);
  const why = runs === undefined
    ? `packages of type "${pkg.registryType}" cannot be run (npm, pypi, nuget, oci and mcpb can)`
    : pkg.transport.type !== "stdio"
    ? `the package serves ${pkg.transport.type} on a port it opens itself; only stdio packages are started`
    : undefined;
  return {
    index,
    kind: "package",
    runs: runs ?? pkg.registryType,
    label: `${pkg.registryType} ${pkg.identifier}${version}${transport}`,
    supported: why === undefined,
    ...(why ? { why } : {}),
    needs,
  };
}

/**
 * Every way to run `entry`, remotes first (nothing to install), then packages in the entry's
 * order, then a registry's plain command line.
 *
 * @example
 * ```ts
 * import { launchOptions } from "@skillmux/core/directory";
 * const [remote] = launchOptions({
 *   directory: "https://registry.example.org",
 *   status: "active",
 *   server: {
 *     name: "com.example/acme",
 *     description: "ACME analytics",
 *     version: "2.0.0",
 *     remotes: [{
 *       type: "streamable-http",
 *       url: "https://{tenant}.acme.example.com/mcp",
 *       variables: { tenant: { isRequired: true, description: "Your tenant" } },
 *       headers: [{ name: "X-API-Key", isRequired: true, isSecret: true }],
 *     }],
 *   },
 * });
 * console.log(remote.needs.map((n) => `${n.kind}:${n.name}${n.secret ? " (secret)" : ""}`));
 * // ["variable:tenant", "header:X-API-Key (secret)"]
 * ```
 */
export function launchOptions(entry: DirectoryEntry): LaunchOption[] {
  const options: LaunchOption[] = [];
  for (const remote of entry.server.remotes ?? []) {
    const vars = Object.entries(remote.variables ?? {}).map(([name, spec]) =>
      requirement(name, "variable", spec)
    );
    options.push({
      index: options.length,
      kind: "remote",
      runs: "remote",
      label: `${remote.type} ${remote.url}`,
      supported: true,
      needs: unique([...vars, ...keyValueNeeds(remote.headers, "header")]),
    });
  }
  for (const pkg of entry.server.packages ?? []) options.push(packageOption(pkg, options.length));
  if (entry.command) {
    options.push({
      index: options.length,
      kind: "command",
      runs: entry.command.command,
      label: [entry.command.command, ...entry.command.args].join(" "),
      supported: true,
      needs: entry.command.env.map((e) => ({
        name: e.name,
        kind: "env" as const,
        required: e.value === undefined,
        secret: e.isSecret,
        ...(e.value !== undefined ? { default: e.value } : {}),
        ...(e.placeholder ? { placeholder: e.placeholder } : {}),
      })),
    });
  }
  return options;
}
