/**
 * Turn an MCP registry entry into a server configuration: a remote with its URL variables and
 * headers filled in, a package run through its runtime with its arguments in order, or a
 * registry's command line after it is checked. The plan says exactly what will run (for
 * consent), what is still missing, and where it came from; nothing is saved or started here.
 *
 * @module
 */

import type { McpServerConfig, ServerOrigin } from "../protocol/types.ts";
import { commandWarnings, describeLaunch, type LaunchDescription } from "../policy/launch.ts";
import { DirectoryError } from "./errors.ts";
import { isLoopbackHost } from "../policy/url.ts";
import { type LaunchOption, launchOptions, type Requirement } from "./requirements.ts";
import { type PackageCommand, packageCommand, packageEnv } from "./_package.ts";
import { checkValue, fill, type ValueChoices, valueOf } from "./_values.ts";
import type { ServerRemote } from "./server_json.ts";
import type { DirectoryEntry } from "./types.ts";

/** Options of {@linkcode planServer}. */
export interface PlanOptions {
  /** Which way to run it (an index of `launchOptions`; default the first that skillmux can run). */
  option?: number;
  /** The values to fill in, by requirement name (env var, header, URL variable, argument). */
  values?: Record<string, string>;
  /** The local server name (default: the part of the registry name after the slash). */
  name?: string;
}

/** An mcpb bundle to download, verify and unpack before the server can run. */
export interface BundleStep {
  /** Its download URL. */
  url: string;
  /** The sha256 (hex) the download must have. */
  sha256: string;
}

/** What {@linkcode planServer} returns. */
export interface ServerPlan {
  /** The server entry to save (incomplete while `missing` is not empty, or before a bundle is unpacked). */
  config: McpServerConfig & { description?: string; origin: ServerOrigin };
  /** The way to run it that was chosen. */
  option: LaunchOption;
  /** Required values not given and without a default. */
  missing: Requirement[];
  /** What will run or be reached, secrets masked (show it before saving). */
  launch: LaunchDescription;
  /** Names of env variables and headers holding secrets (seal them; never show them). */
  secrets: string[];
  /** mcpb: the download to verify and unpack first (see `installBundle`). */
  bundle?: BundleStep;
  /** Things to say: deprecated, a bridge replaced by a direct connection… */
  notes: string[];
}

/**
 * The local name of a registry server: the part after its slash, made a valid server name.
 *
 * @example
 * ```ts
 * import { localName } from "@skillmux/core/directory";
 * console.log(localName("io.github.lab/team docs")); // "team-docs"
 * ```
 */
export function localName(name: string): string {
  const tail = name.split("/").pop() ?? name;
  return tail.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+/, "").slice(0, 64) || "server";
}

function remoteConfig(remote: ServerRemote, r: ValueChoices): McpServerConfig {
  const url = fill(remote.url, remote.variables, r, encodeURIComponent);
  const parsed = url === undefined || !URL.canParse(url) ? undefined : new URL(url);
  if (url !== undefined && !(parsed?.protocol === "https:" || parsed?.protocol === "http:")) {
    throw new DirectoryError(
      "invalid",
      `${r.server}: the URL ${remote.url} is not a valid http(s) URL once its variables are filled`,
      { server: r.server, field: "remotes.url" },
    );
  }
  const config: McpServerConfig = {
    name: "",
    url: url ?? remote.url,
    transport: remote.type === "sse" ? "sse" : "streamable-http",
  };
  const headers: Record<string, string> = {};
  for (const h of remote.headers ?? []) {
    const value = h.value !== undefined
      ? fill(h.value, h.variables, r, undefined, h.isSecret)
      : valueOf(h.name, "header", h, r);
    if (value === undefined) continue;
    checkValue(h.name, value, {}, r.server);
    if (h.name.toLowerCase() === "authorization" && /^bearer\s+/i.test(value)) {
      config.apiKey = value.replace(/^bearer\s+/i, "");
      r.secretNames.add("Authorization");
    } else {
      headers[h.name] = value;
      if (h.isSecret) r.secretNames.add(h.name);
    }
  }
  if (Object.keys(headers).length > 0) config.headers = headers;
  return config;
}

const DIRECTORY_RUNTIMES = new Set(["npx", "uvx", "uv"]);

function commandConfig(entry: DirectoryEntry, r: ValueChoices): PackageCommand {
  const command = entry.command!;
  if (!DIRECTORY_RUNTIMES.has(command.command)) {
    throw new DirectoryError(
      "refused",
      `${r.server}: the command is ${JSON.stringify(command.command.slice(0, 60))}, but this ` +
        `registry's entries run with npx, uvx or uv: refusing it`,
      { field: "command", server: r.server },
    );
  }
  const warnings = commandWarnings(command.command, command.args);
  if (warnings.length > 0) {
    throw new DirectoryError(
      "refused",
      `${r.server}: the command ${warnings[0]}; refusing to add it from a registry (add it by ` +
        `hand with mcp add --command if you have read the code and trust it)`,
      { field: "args", server: r.server },
    );
  }
  const env: Record<string, string> = {};
  for (const e of command.env) {
    if (e.isSecret) r.secretNames.add(e.name);
    const value = valueOf(e.name, "env", {
      isRequired: e.value === undefined,
      isSecret: e.isSecret,
      ...(e.value !== undefined ? { default: e.value } : {}),
      ...(e.placeholder ? { placeholder: e.placeholder } : {}),
    }, r);
    if (value !== undefined) env[e.name] = value;
  }
  return { command: command.command, args: [...command.args], env };
}

/**
 * Plan how `entry` runs: fill its values, build the command line or URL, and describe it.
 * Refused (`DirectoryError`): a deleted entry (`deleted`), a way to run that skillmux cannot
 * use (`unsupported`), a runtime other than the declared one, shell syntax in names, versions
 * or flags, a secret on a command line, inline code from a registry (`refused`), a value
 * outside its choices or format, or a value for no input (`invalid`).
 *
 * @param entry A registry entry (`getServer`).
 * @param options Which way to run it, the values, the local name.
 * @returns The plan; `missing` lists what is still to be asked.
 *
 * @example A package with a secret environment variable
 * ```ts
 * import { planServer } from "@skillmux/core/directory";
 * const plan = planServer({
 *   directory: "https://registry.modelcontextprotocol.io",
 *   status: "active",
 *   server: {
 *     name: "io.github.example/weather",
 *     description: "Weather",
 *     version: "0.5.0",
 *     packages: [{
 *       registryType: "pypi",
 *       identifier: "weather-mcp-server",
 *       version: "0.5.0",
 *       runtimeHint: "uvx",
 *       transport: { type: "stdio" },
 *       environmentVariables: [{ name: "WEATHER_API_KEY", isRequired: true, isSecret: true }],
 *     }],
 *   },
 * }, { values: { WEATHER_API_KEY: "k-123" } });
 * console.log(plan.launch.commandLine); // uvx weather-mcp-server==0.5.0
 * console.log(plan.launch.env); // [{ name: "WEATHER_API_KEY", value: "••••••••", secret: true }]
 * ```
 */
export function planServer(entry: DirectoryEntry, options: PlanOptions = {}): ServerPlan {
  const server = entry.server.name;
  if (entry.status === "deleted") {
    throw new DirectoryError(
      "deleted",
      `${server} ${entry.server.version} is deleted by ${entry.directory}${
        entry.statusMessage ? ` (${entry.statusMessage})` : ""
      }: it cannot be added`,
      { server },
    );
  }
  const all = launchOptions(entry);
  if (all.length === 0) {
    throw new DirectoryError(
      "unsupported",
      `${server} lists no remote and no package${
        entry.server.websiteUrl ? `; see ${entry.server.websiteUrl} for how to install it` : ""
      }`,
      { server },
    );
  }
  const option = options.option === undefined
    ? all.find((o) => o.supported) ?? all[0]
    : all[options.option];
  if (option === undefined) {
    throw new DirectoryError(
      "invalid",
      `${server} has ${all.length} way${all.length === 1 ? "" : "s"} to run (0 to ${
        all.length - 1
      }), not ${options.option}`,
      { server, field: "option" },
    );
  }
  if (!option.supported) {
    throw new DirectoryError("unsupported", `${server}: ${option.label}: ${option.why}`, {
      server,
    });
  }
  const given = options.values ?? {};
  const r: ValueChoices = { given, missing: [], secretNames: new Set(), used: new Set(), server };
  const remotes = entry.server.remotes ?? [];
  const packages = entry.server.packages ?? [];
  let config: McpServerConfig;
  let bundle: BundleStep | undefined;
  const notes: string[] = [];
  if (entry.status === "deprecated") {
    notes.push(
      `${server} ${entry.server.version} is deprecated${
        entry.statusMessage ? `: ${entry.statusMessage}` : ""
      }`,
    );
  }
  if (option.kind === "remote") config = remoteConfig(remotes[option.index], r);
  else if (option.kind === "command") config = { name: "", ...commandConfig(entry, r) };
  else {
    const index = option.index - remotes.length;
    const pkg = packages[index];
    const field = `packages[${index}]`;
    if (pkg.registryType === "mcpb") {
      if (!pkg.fileSha256) {
        throw new DirectoryError("invalid", `${server}: ${field} is an mcpb without fileSha256`, {
          server,
          field: `${field}.fileSha256`,
        });
      }
      let url: URL | undefined;
      try {
        url = new URL(pkg.identifier);
      } catch { /* below */ }
      const loopback = url?.protocol === "http:" && isLoopbackHost(url.hostname);
      if (url === undefined || (url.protocol !== "https:" && !loopback)) {
        throw new DirectoryError(
          "refused",
          `${server}: ${field}.identifier must be an https:// download URL`,
          {
            server,
            field: `${field}.identifier`,
          },
        );
      }
      bundle = { url: url.href, sha256: pkg.fileSha256 };
      config = { name: "", env: packageEnv(pkg, r) };
    } else config = { name: "", ...packageCommand(pkg, field, r) };
  }
  const unknown = Object.keys(given).filter((name) => !r.used.has(name));
  if (unknown.length > 0) {
    const takes = option.needs.map((n) => n.name);
    throw new DirectoryError(
      "invalid",
      `${server} takes no value named ${unknown.join(", ")}${
        takes.length ? `; it takes ${takes.join(", ")}` : ""
      }`,
      { server, field: unknown[0] },
    );
  }
  if (config.env && Object.keys(config.env).length === 0) delete config.env;
  config.name = options.name ?? localName(server);
  const secrets = [...r.secretNames];
  const values = Object.fromEntries(
    Object.entries(given).filter(([name]) => !r.secretNames.has(name)),
  );
  const origin: ServerOrigin = {
    registry: entry.directory,
    name: server,
    version: entry.server.version,
    option: option.index,
    ...(Object.keys(values).length ? { values } : {}),
  };
  const { title } = entry.server;
  const description = (title && title !== server ? `${title}: ` : "") + entry.server.description;
  // deno-lint-ignore no-control-regex
  const clean = description.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ").slice(0, 1_000);
  const saved = { ...config, description: clean, origin };
  return {
    config: saved,
    option,
    missing: r.missing,
    launch: describeLaunch(
      config,
      secrets,
      option.needs.filter((n) => !n.secret).map((n) => n.name),
    ),
    secrets,
    ...(bundle ? { bundle } : {}),
    notes,
  };
}
