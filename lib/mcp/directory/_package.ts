// Private: the command line of a package, per registry type, through its declared runtime only:
// npm `npx -y pkg@version`, pypi `uvx pkg==version`, nuget `dnx pkg@version --yes --`, oci
// `docker run -i --rm … image`. An entry whose runtimeHint names another program is refused,
// and so is an identifier, version or registry URL that a runtime could read as a flag or
// that holds shell syntax.

import { DirectoryError } from "./errors.ts";
import type { ServerPackage } from "./server_json.ts";
import { argumentWords, fill, isSecretArgument, type ValueChoices, valueOf } from "./_values.ts";

/** The programs each registry type may run with (the first is used when no hint is given). */
export const RUNTIMES: Record<string, readonly string[]> = {
  npm: ["npx"],
  pypi: ["uvx"],
  nuget: ["dnx"],
  oci: ["docker", "podman"],
};

const IDENTIFIER: Record<string, RegExp> = {
  npm: /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i,
  pypi: /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?$/,
  nuget: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
  oci:
    /^[a-z0-9][a-z0-9._-]*(:[0-9]+)?(\/[a-z0-9][a-z0-9._-]*)*(:[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?(@sha256:[a-f0-9]{64})?$/,
};
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;
const DEFAULT_BASE: Record<string, string> = {
  npm: "https://registry.npmjs.org",
  pypi: "https://pypi.org",
  nuget: "https://api.nuget.org/v3/index.json",
};

/** A stdio command and its environment. */
export interface PackageCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

function refuse(r: ValueChoices, field: string, why: string): DirectoryError {
  return new DirectoryError("refused", `${r.server}: ${field} ${why}`, { field, server: r.server });
}

/** The program to run `pkg` with: its hint when the type allows it, else the type's runtime. */
export function runtimeOf(pkg: ServerPackage, field: string, r: ValueChoices): string {
  const allowed = RUNTIMES[pkg.registryType];
  if (allowed === undefined) {
    throw new DirectoryError(
      "unsupported",
      `${r.server}: ${field} is a "${pkg.registryType}" package, which skillmux cannot run`,
      { field: `${field}.registryType`, server: r.server },
    );
  }
  if (pkg.runtimeHint !== undefined && !allowed.includes(pkg.runtimeHint)) {
    throw refuse(
      r,
      `${field}.runtimeHint`,
      `is ${JSON.stringify(pkg.runtimeHint.slice(0, 60))}, but ${pkg.registryType} packages run ` +
        `with ${allowed.join(" or ")}: refusing an entry that would run another program than ` +
        `the one its type declares`,
    );
  }
  return pkg.runtimeHint ?? allowed[0];
}

/** Refuse a base URL that is not plain https (or http to loopback, checked again at run time). */
function baseUrl(pkg: ServerPackage, field: string, r: ValueChoices): string | undefined {
  const given = pkg.registryBaseUrl;
  if (given === undefined) return;
  // The type's own registry (any path of its host: "https://api.nuget.org" is NuGet's too).
  if (
    URL.canParse(given) &&
    new URL(given).host === new URL(DEFAULT_BASE[pkg.registryType] ?? "x:").host
  ) {
    return;
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw refuse(r, `${field}.registryBaseUrl`, "is not a URL");
  }
  if (url.protocol !== "https:" || url.username || url.password || given.startsWith("-")) {
    throw refuse(r, `${field}.registryBaseUrl`, "must be a plain https:// URL");
  }
  return url.href;
}

/** `pkg`'s words of its argument list `which`, in order; secrets are never put in an argument. */
function words(
  pkg: ServerPackage,
  which: "runtimeArguments" | "packageArguments",
  field: string,
  runtime: string,
  r: ValueChoices,
  env: Record<string, string>,
): string[] {
  const out: string[] = [];
  for (const [i, arg] of (pkg[which] ?? []).entries()) {
    const at = `${field}.${which}[${i}]`;
    const got = argumentWords(arg, r, at);
    if (got.length > 0 && isSecretArgument(arg)) {
      // docker -e NAME=value: the value goes in docker's environment, the argument names it.
      const pair = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(got.at(-1)!);
      const isEnvFlag = arg.type === "named" && (arg.name === "-e" || arg.name === "--env");
      if ((runtime === "docker" || runtime === "podman") && isEnvFlag && pair) {
        env[pair[1]] = pair[2];
        r.secretNames.add(pair[1]);
        out.push(arg.name, pair[1]);
        continue;
      }
      throw refuse(
        r,
        at,
        "takes a secret as a command-line argument, where every local user can read it " +
          "(ps); skillmux passes secrets only through the environment or headers",
      );
    }
    out.push(...got);
  }
  return out;
}

/** The environment variables of `pkg`. */
export function packageEnv(pkg: ServerPackage, r: ValueChoices): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of pkg.environmentVariables ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(kv.name)) {
      throw refuse(
        r,
        `environment variable ${JSON.stringify(kv.name.slice(0, 60))}`,
        "is not a variable name",
      );
    }
    const value = kv.value !== undefined
      ? fill(kv.value, kv.variables, r, undefined, kv.isSecret)
      : valueOf(kv.name, "env", kv, r);
    if (kv.isSecret) r.secretNames.add(kv.name);
    if (value !== undefined) env[kv.name] = value;
  }
  return env;
}

/** The command that runs `pkg` (not mcpb), with its environment. */
export function packageCommand(pkg: ServerPackage, field: string, r: ValueChoices): PackageCommand {
  const runtime = runtimeOf(pkg, field, r);
  const type = pkg.registryType;
  if (!IDENTIFIER[type].test(pkg.identifier)) {
    throw refuse(
      r,
      `${field}.identifier`,
      `${JSON.stringify(pkg.identifier.slice(0, 100))} is not a ${type} package name ` +
        "(no spaces, shell syntax or leading dash)",
    );
  }
  if (type !== "oci") {
    if (pkg.version === undefined) {
      throw new DirectoryError("invalid", `${r.server}: ${field} has no version`, {
        field: `${field}.version`,
        server: r.server,
      });
    }
    if (!VERSION.test(pkg.version) || pkg.version === "latest") {
      throw refuse(
        r,
        `${field}.version`,
        `${JSON.stringify(pkg.version.slice(0, 60))} is not an exact version`,
      );
    }
  }
  const env = packageEnv(pkg, r);
  const base = baseUrl(pkg, field, r);
  const runtimeArgs = words(pkg, "runtimeArguments", field, runtime, r, env);
  const packageArgs = words(pkg, "packageArguments", field, runtime, r, env);
  switch (type) {
    case "npm":
      return {
        command: runtime,
        args: [
          "-y",
          ...(base ? [`--registry=${base}`] : []),
          ...runtimeArgs,
          `${pkg.identifier}@${pkg.version}`,
          ...packageArgs,
        ],
        env,
      };
    case "pypi":
      return {
        command: runtime,
        args: [
          ...(base ? ["--index-url", base] : []),
          ...runtimeArgs,
          `${pkg.identifier}==${pkg.version}`,
          ...packageArgs,
        ],
        env,
      };
    case "nuget":
      return {
        command: runtime,
        args: [
          ...runtimeArgs,
          `${pkg.identifier}@${pkg.version}`,
          "--yes",
          ...(base ? ["--source", base] : []),
          ...(packageArgs.length ? ["--", ...packageArgs] : []),
        ],
        env,
      };
    default: {
      // The container sees only the variables named with -e; their values come from docker's
      // own environment, so none is ever on the command line.
      const named = new Set(runtimeArgs.filter((_, i) => runtimeArgs[i - 1] === "-e"));
      const passed = Object.keys(env).filter((n) => !named.has(n)).flatMap((n) => ["-e", n]);
      return {
        command: runtime,
        args: ["run", "-i", "--rm", ...runtimeArgs, ...passed, pkg.identifier, ...packageArgs],
        env,
      };
    }
  }
}
