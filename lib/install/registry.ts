/**
 * Read a skill registry: its index and its verified downloads.
 *
 * @module
 */

import { InstallError } from "./errors.ts";
import { getBytes, httpOptions, showUrl } from "./_http.ts";
import { readIndex } from "./_index.ts";
import type { InstallerOptions, RegistryIndex } from "./types.ts";

/** Default cap of the index: 8 MiB. */
const MAX_INDEX_BYTES = 8 * 1024 * 1024;

/**
 * The URL of a registry's index: `<registry>/index.json`, or the registry URL
 * itself when it names a `.json` file.
 *
 * @param registry A base URL such as `https://skills.example.org/` or an index URL.
 * @returns The index URL.
 * @throws {InstallError} `config` when `registry` is not an absolute URL.
 *
 * @example
 * ```ts
 * import { registryIndexUrl } from "@skillmux/core/install";
 * console.log(registryIndexUrl("https://skills.example.org").href); // "https://skills.example.org/index.json"
 * console.log(registryIndexUrl("https://example.org/x/v2.json").href); // "https://example.org/x/v2.json"
 * ```
 */
export function registryIndexUrl(registry: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(registry));
  } catch {
    throw new InstallError(
      "config",
      `The registry ${
        JSON.stringify(String(registry))
      } is not an absolute URL (expected https://host/path)`,
    );
  }
  if (url.pathname.endsWith(".json")) return url;
  return new URL("index.json", url.href.endsWith("/") ? url : `${url.href}/`);
}

/**
 * Download and check a registry index. Entries with a bad name (`../x`, not
 * ASCII), a name listed twice or a missing field are left out and listed in
 * `problems`; the others are usable.
 *
 * @param options `registry` and the HTTP options (fetch, timeout, retries, URL policy, caps).
 * @returns The usable entries by name, and the problems.
 * @throws {InstallError} When the index cannot be downloaded or is not an index at all.
 *
 * @example
 * ```ts
 * import { fetchRegistryIndex } from "@skillmux/core/install";
 * const index = await fetchRegistryIndex({ registry: "https://skills.example.org" })
 *   .catch((error) => console.log(error.code)); // "network" when it cannot be reached
 * if (index) console.log([...index.skills.keys()], index.problems);
 * ```
 */
export async function fetchRegistryIndex(
  options: Pick<InstallerOptions, "registry"> & Partial<InstallerOptions>,
): Promise<RegistryIndex> {
  if (options.registry === undefined || String(options.registry) === "") {
    throw new InstallError(
      "config",
      "No skill registry is configured: pass --registry <url>, set SKILLMUX_REGISTRY, or add " +
        '[skills] registry = "https://…" to config.toml',
    );
  }
  const url = registryIndexUrl(options.registry);
  const bytes = await getBytes(
    url,
    options.maxIndexBytes ?? MAX_INDEX_BYTES,
    httpOptions(options),
    "the registry index",
  );
  return readIndex(bytes, showUrl(url));
}
