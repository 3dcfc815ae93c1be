/**
 * `server.json`, the MCP Registry's description of how to run or reach a server (schema
 * 2025-12-11): its types and the valibot schema every answer of a registry is checked against.
 * Unknown fields are dropped; strings, lists and tables are capped, so a registry cannot make a
 * reader hold more than it asked for.
 *
 * @module
 */

// Long because: the `server.json` types and their valibot schema side by side, so a field and its
// cap change together; a third is JSDoc.

import * as v from "valibot";
import { DirectoryError } from "./errors.ts";
import { describeIssue } from "./_issues.ts";

/** A value the user gives (or the entry fixes): an environment variable, header, argument or URL variable. */
export interface ServerInput {
  /** What it is for, shown when asking. */
  description?: string;
  /** Must be given (default `false`). */
  isRequired?: boolean;
  /** `string` (default), `number`, `boolean` or `filepath`. */
  format?: "string" | "number" | "boolean" | "filepath";
  /** A fixed value; `{name}` in it is filled from `variables`. */
  value?: string;
  /** A password or token: asked without echo, stored as a secret, never shown. */
  isSecret?: boolean;
  /** The value used when none is given. */
  default?: string;
  /** An example shown when asking. */
  placeholder?: string;
  /** The values allowed. */
  choices?: string[];
}

/** An input whose `value` may use `{name}` variables. */
export interface ServerInputWithVariables extends ServerInput {
  /** The variables of `value`. */
  variables?: Record<string, ServerInput>;
}

/** An environment variable or HTTP header. */
export interface KeyValueInput extends ServerInputWithVariables {
  /** Its name. */
  name: string;
}

/** A command-line argument: a positional value, or a named `--flag value`. */
export type ServerArgument =
  | (ServerInputWithVariables & {
    type: "positional";
    /** A label for the value (not on the command line). */
    valueHint?: string;
    /** May be given more than once. */
    isRepeated?: boolean;
  })
  | (ServerInputWithVariables & {
    type: "named";
    /** The flag, with its dashes (`--port`). */
    name: string;
    /** May be given more than once. */
    isRepeated?: boolean;
  });

/** How a package's server is reached once started. */
export type PackageTransport =
  | { type: "stdio" }
  | { type: "streamable-http" | "sse"; url: string; headers?: KeyValueInput[] };

/** A package that runs the server: npm, PyPI, NuGet, an OCI image or an MCP bundle. */
export interface ServerPackage {
  /** `npm`, `pypi`, `nuget`, `oci` or `mcpb` (others are listed but cannot be run). */
  registryType: string;
  /** The package registry (default per type). */
  registryBaseUrl?: string;
  /** The package name, image reference or (mcpb) download URL. */
  identifier: string;
  /** The exact version (npm, pypi, nuget; optional for mcpb). */
  version?: string;
  /** The sha256 of the file (required for mcpb). */
  fileSha256?: string;
  /** The program that runs the package: `npx`, `uvx`, `docker`, `dnx`. */
  runtimeHint?: string;
  /** The transport the started server speaks. */
  transport: PackageTransport;
  /** Arguments of the runtime (before the package). */
  runtimeArguments?: ServerArgument[];
  /** Arguments of the package's program (after it). */
  packageArguments?: ServerArgument[];
  /** Environment variables of the process. */
  environmentVariables?: KeyValueInput[];
}

/** A hosted server: a URL (with `{variables}`) and headers. */
export interface ServerRemote {
  /** `streamable-http` or `sse`. */
  type: "streamable-http" | "sse";
  /** The URL; `{name}` parts are filled from `variables`. */
  url: string;
  /** Headers to send. */
  headers?: KeyValueInput[];
  /** The variables of `url`. */
  variables?: Record<string, ServerInput>;
}

/** An icon: always an `https:` URL here (others are dropped), shown as an image only. */
export interface ServerIcon {
  /** The image URL (https). */
  src: string;
  /** Its type. */
  mimeType?: string;
  /** `48x48`, `any`… */
  sizes?: string[];
  /** `light` or `dark`. */
  theme?: "light" | "dark";
}

/** A `server.json` document, as checked. */
export interface ServerJson {
  /** `reverse.dns/name`, e.g. `io.github.owner/weather`. */
  name: string;
  /** What it does. */
  description: string;
  /** A display name. */
  title?: string;
  /** This version. */
  version: string;
  /** Its home page. */
  websiteUrl?: string;
  /** Its source repository. */
  repository?: { url: string; source?: string; id?: string; subfolder?: string };
  /** Icons (https only). */
  icons?: ServerIcon[];
  /** Packages that run it locally. */
  packages?: ServerPackage[];
  /** Hosted endpoints. */
  remotes?: ServerRemote[];
}

/**
 * The name pattern of the MCP Registry: one slash, reverse-DNS namespace.
 *
 * @example
 * ```ts
 * import { SERVER_NAME_PATTERN } from "@skillmux/core/directory";
 * console.log(SERVER_NAME_PATTERN.test("io.github.lab/team-docs")); // true
 * console.log(SERVER_NAME_PATTERN.test("team-docs")); // false: no namespace
 * ```
 */
export const SERVER_NAME_PATTERN: RegExp = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`));
const list = <T>(item: v.GenericSchema<unknown, T>, max: number) =>
  v.pipe(v.array(item), v.maxLength(max, `at most ${max} items`));
const table = <T>(item: v.GenericSchema<unknown, T>, max: number) =>
  v.pipe(
    v.record(v.pipe(v.string(), v.maxLength(200)), item),
    v.check((t) => Object.keys(t).length <= max, `at most ${max} entries`),
  );

const inputFields = {
  description: v.optional(text(4_000)),
  isRequired: v.optional(v.boolean()),
  format: v.optional(v.picklist(["string", "number", "boolean", "filepath"])),
  value: v.optional(text(4_000)),
  isSecret: v.optional(v.boolean()),
  default: v.optional(text(4_000)),
  placeholder: v.optional(text(1_000)),
  choices: v.optional(list(text(1_000), 256)),
};
const Input: v.GenericSchema<unknown, ServerInput> = v.object(inputFields);
const withVariables = { ...inputFields, variables: v.optional(table(Input, 64)) };
const KeyValue: v.GenericSchema<unknown, KeyValueInput> = v.object({
  ...withVariables,
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
});
const Argument: v.GenericSchema<unknown, ServerArgument> = v.variant("type", [
  v.object({
    ...withVariables,
    type: v.literal("positional"),
    valueHint: v.optional(text(200)),
    isRepeated: v.optional(v.boolean()),
  }),
  v.object({
    ...withVariables,
    type: v.literal("named"),
    name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
    isRepeated: v.optional(v.boolean()),
  }),
]);
const url = v.pipe(v.string(), v.minLength(1), v.maxLength(2_048));
const Transport: v.GenericSchema<unknown, PackageTransport> = v.variant("type", [
  v.object({ type: v.literal("stdio") }),
  v.object({
    type: v.picklist(["streamable-http", "sse"]),
    url,
    headers: v.optional(list(KeyValue, 64)),
  }),
]);
const Package: v.GenericSchema<unknown, ServerPackage> = v.object({
  registryType: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  registryBaseUrl: v.optional(url),
  identifier: v.pipe(v.string(), v.minLength(1), v.maxLength(2_048)),
  version: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(255))),
  fileSha256: v.optional(v.pipe(v.string(), v.regex(/^[a-f0-9]{64}$/, "64 lower-case hex digits"))),
  runtimeHint: v.optional(text(100)),
  transport: Transport,
  runtimeArguments: v.optional(list(Argument, 256)),
  packageArguments: v.optional(list(Argument, 256)),
  environmentVariables: v.optional(list(KeyValue, 256)),
});
const Remote: v.GenericSchema<unknown, ServerRemote> = v.object({
  type: v.picklist(["streamable-http", "sse"]),
  url,
  headers: v.optional(list(KeyValue, 64)),
  variables: v.optional(table(Input, 64)),
});
const Icon = v.object({
  src: url,
  mimeType: v.optional(text(100)),
  sizes: v.optional(list(text(40), 32)),
  theme: v.optional(v.picklist(["light", "dark"])),
});

/** The schema of a `server.json` document (icons not yet filtered to https). */
const ServerJsonSchema: v.GenericSchema<unknown, ServerJson> = v.object({
  name: v.pipe(
    v.string(),
    v.minLength(3),
    v.maxLength(200),
    v.regex(SERVER_NAME_PATTERN, "a name like io.github.owner/server (one slash)"),
  ),
  description: text(4_000),
  title: v.optional(text(200)),
  version: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  websiteUrl: v.optional(url),
  repository: v.optional(v.object({
    url,
    source: v.optional(text(100)),
    id: v.optional(text(200)),
    subfolder: v.optional(text(1_000)),
  })),
  icons: v.optional(list(Icon, 16)),
  packages: v.optional(list(Package, 32)),
  remotes: v.optional(list(Remote, 32)),
});

/**
 * Check `value` as a `server.json` document and return it without unknown fields; icons that
 * are not `https:` URLs are dropped (an icon is only ever shown as an image).
 *
 * @param value The parsed JSON.
 * @param where Names the document in the error (e.g. a URL).
 * @returns The checked document.
 * @throws {DirectoryError} `invalid`, naming the field.
 *
 * @example
 * ```ts
 * import { parseServerJson } from "@skillmux/core/directory";
 * const server = parseServerJson({
 *   name: "io.github.example/weather",
 *   description: "Weather forecasts",
 *   version: "1.0.0",
 *   remotes: [{ type: "streamable-http", url: "https://weather.example.com/mcp" }],
 * });
 * console.log(server.remotes?.[0].url); // "https://weather.example.com/mcp"
 * ```
 */
export function parseServerJson(value: unknown, where = "server.json"): ServerJson {
  const checked = v.safeParse(ServerJsonSchema, value);
  if (!checked.success) {
    const { field, message } = describeIssue(checked.issues);
    const name = (value as { name?: unknown })?.name;
    throw new DirectoryError("invalid", `${where} is not a valid server.json: ${message}`, {
      field,
      ...(typeof name === "string" ? { server: name.slice(0, 200) } : {}),
    });
  }
  return withSafeIcons(checked.output);
}

/**
 * `server` with only its `https:` icons.
 *
 * @example
 * ```ts
 * import { withSafeIcons } from "@skillmux/core/directory";
 * const server = withSafeIcons({
 *   name: "io.github.lab/docs",
 *   description: "Team docs",
 *   version: "1.0.0",
 *   icons: [{ src: "https://lab.example/icon.png" }, { src: "javascript:alert(1)" }],
 * });
 * console.log(server.icons?.length); // 1
 * ```
 */
export function withSafeIcons(server: ServerJson): ServerJson {
  if (!server.icons) return server;
  const icons = server.icons.filter((icon) => {
    try {
      return new URL(icon.src).protocol === "https:";
    } catch {
      return false;
    }
  });
  const { icons: _, ...rest } = server;
  return icons.length > 0 ? { ...rest, icons } : rest;
}
