/**
 * MCP bundles (`.mcpb`, registryType `mcpb`): downloaded within a size cap, checked against the
 * entry's `fileSha256` before anything else, unpacked into a folder of their own (no path may
 * leave it), and run as their `manifest.json` says — but only through the program their server
 * type declares (`node`, `python`, `uv`, or a binary inside the bundle).
 *
 * @module
 */

import { nodeBuiltins } from "../../_node.ts";
import { DirectoryError } from "./errors.ts";
import { getBytes, showUrl } from "./_http.ts";
import type { BundleStep } from "./plan.ts";
import type { Requirement } from "./requirements.ts";
import { readZip } from "./_zip.ts";
import type { DirectoryHttpOptions } from "./types.ts";

/**
 * Largest bundle downloaded, and largest unpacked: 200 MiB.
 *
 * @example
 * ```ts
 * import { MAX_BUNDLE_BYTES } from "@skillmux/core/directory";
 * console.log(MAX_BUNDLE_BYTES / 1024 / 1024); // 200
 * ```
 */
export const MAX_BUNDLE_BYTES: number = 200 * 1024 * 1024;

/** The part of an MCPB `manifest.json` that says how the server runs. */
export interface BundleManifest {
  /** The bundle's name. */
  name: string;
  /** Its version. */
  version: string;
  /** How it runs. */
  server: {
    type: string;
    entry_point?: string;
    mcp_config: { command: string; args?: string[]; env?: Record<string, string> };
  };
  /** Values the user gives (`${user_config.<key>}` in args and env). */
  user_config?: Record<
    string,
    {
      title?: string;
      description?: string;
      sensitive?: boolean;
      required?: boolean;
      default?: unknown;
    }
  >;
}

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Download the bundle of `step` and check its sha256; a mismatch is refused (`digest`) before
 * a byte of it is unpacked or run.
 *
 * @example
 * ```ts ignore
 * import { downloadBundle } from "@skillmux/core/directory";
 * const bytes = await downloadBundle({ url: "https://example.org/x.mcpb", sha256: "fe33…" });
 * ```
 */
export async function downloadBundle(
  step: BundleStep,
  options: DirectoryHttpOptions & { signal?: AbortSignal } = {},
): Promise<Uint8Array> {
  const url = new URL(step.url);
  const bytes = await getBytes(url, options, `the bundle ${showUrl(url)}`, MAX_BUNDLE_BYTES);
  const got = hex(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  if (got !== step.sha256) {
    throw new DirectoryError(
      "digest",
      `The bundle ${showUrl(url)} has sha256 ${got}, but the registry entry says ${step.sha256}: ` +
        "refusing it (nothing was unpacked or saved)",
      { url: showUrl(url), field: "fileSha256" },
    );
  }
  return bytes;
}

/**
 * Unpack a verified bundle into `folder` (created; it must not exist) and read its manifest.
 *
 * @example
 * ```ts
 * import { unpackBundle } from "@skillmux/core/directory";
 * const bytes = await Deno.readFile("weather.mcpb"); // checked first (downloadBundle does)
 * const manifest = await unpackBundle(bytes, "./servers/weather");
 * console.log(manifest.name);
 * ```
 */
export async function unpackBundle(bytes: Uint8Array, folder: string): Promise<BundleManifest> {
  const { fs, path } = nodeBuiltins("unpackBundle");
  const files = await readZip(bytes, MAX_BUNDLE_BYTES);
  const manifestFile = files.find((f) => f.path === "manifest.json");
  if (!manifestFile) throw new DirectoryError("invalid", "The bundle has no manifest.json");
  const manifest = checkManifest(JSON.parse(new TextDecoder().decode(manifestFile.bytes)));
  await fs.mkdir(folder, { recursive: false, mode: 0o700 });
  for (const file of files) {
    const target = path.join(folder, ...file.path.split("/"));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, file.bytes, { mode: file.executable ? 0o700 : 0o600, flag: "wx" });
  }
  return manifest;
}

function checkManifest(value: unknown): BundleManifest {
  const m = value as Partial<BundleManifest> | null;
  const config = m?.server?.mcp_config;
  if (
    typeof m?.name !== "string" || typeof m.server?.type !== "string" ||
    typeof config?.command !== "string" ||
    (config.args !== undefined &&
      !(Array.isArray(config.args) && config.args.every((a) => typeof a === "string")))
  ) {
    throw new DirectoryError(
      "invalid",
      "The bundle's manifest.json needs name, server.type and server.mcp_config.command (and args as strings)",
      { field: "manifest.json" },
    );
  }
  return { ...m, version: typeof m.version === "string" ? m.version : "" } as BundleManifest;
}

const PROGRAMS: Record<string, readonly string[]> = {
  node: ["node"],
  python: ["python", "python3", "uv"],
  uv: ["uv"],
};

/**
 * What an unpacked bundle runs: its manifest's command with `${__dirname}` made the folder and
 * `${user_config.<key>}` filled from `values`; refused when the command is not the program its
 * server type declares. `missing` lists required user settings not given.
 *
 * @example
 * ```ts
 * import { bundleLaunch, unpackBundle } from "@skillmux/core/directory";
 * const manifest = await unpackBundle(await Deno.readFile("weather.mcpb"), "./servers/weather");
 * const launch = bundleLaunch(manifest, "./servers/weather", { api_key: "k-1" });
 * console.log(launch.missing); // required user settings not given
 * ```
 */
export function bundleLaunch(
  manifest: BundleManifest,
  folder: string,
  values: Readonly<Record<string, string>> = {},
): {
  command: string;
  args: string[];
  env: Record<string, string>;
  missing: Requirement[];
  secrets: string[];
} {
  const missing: Requirement[] = [];
  const secrets: string[] = [];
  const fill = (text: string, inArgs = false) =>
    text.replaceAll("${__dirname}", folder).replace(
      /\$\{user_config\.([A-Za-z0-9_]+)\}/g,
      (_, key: string) => {
        const spec = manifest.user_config?.[key];
        if (spec?.sensitive && inArgs) {
          throw new DirectoryError(
            "refused",
            `The bundle "${manifest.name}" puts the secret ${key} on its command line, where every ` +
              "local user can read it; skillmux passes secrets only through the environment",
            { field: "manifest.json server.mcp_config.args" },
          );
        }
        if (spec?.sensitive) secrets.push(key);
        const value = values[key] ?? (typeof spec?.default === "string" ? spec.default : undefined);
        if (value === undefined) {
          if (!missing.some((m) => m.name === key)) {
            missing.push({
              name: key,
              kind: "variable",
              required: true,
              secret: spec?.sensitive === true,
              ...(spec?.description ?? spec?.title
                ? { description: spec?.description ?? spec?.title }
                : {}),
            });
          }
          return "";
        }
        return value;
      },
    );
  const { command: raw, args = [], env = {} } = manifest.server.mcp_config;
  const command = fill(raw);
  const allowed = PROGRAMS[manifest.server.type];
  const inside = command.startsWith(`${folder}/`) && !command.includes("/../");
  if (manifest.server.type === "binary" ? !inside : !allowed?.includes(command)) {
    throw new DirectoryError(
      "refused",
      `The bundle "${manifest.name}" runs ${
        JSON.stringify(raw.slice(0, 100))
      }, but its server type ` +
        `"${manifest.server.type}" runs with ${
          manifest.server.type === "binary"
            ? "a program inside the bundle"
            : allowed?.join(" or ") ?? "nothing skillmux knows"
        }: refusing it`,
      { field: "manifest.json server.mcp_config.command" },
    );
  }
  return {
    command,
    args: args.map((a) => fill(a, true)),
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(String(v))])),
    missing,
    secrets,
  };
}
