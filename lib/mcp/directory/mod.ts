/**
 * MCP registries (`@skillmux/core/directory`): find servers in the official MCP Registry (the
 * `/v0.1/` API and its `server.json`) and the BioContext registry, see what each needs and what
 * it will run, and plan the entry that `createServerRegistry().add()` saves. In the code an MCP
 * registry is a *server directory*, so it is never confused with the user's own server registry.
 *
 * @example Search, then plan what one server would run
 * ```ts ignore
 * import { createOfficialDirectory, launchOptions, planServer } from "@skillmux/core/directory";
 * const registry = createOfficialDirectory();
 * const [entry] = (await registry.search("weather")).entries;
 * console.log(launchOptions(entry).map((o) => `${o.runs}: ${o.needs.map((n) => n.name)}`));
 * const plan = planServer(entry, { values: { WEATHER_API_KEY: "k-123" } });
 * console.log(plan.launch.commandLine ?? plan.launch.url);
 * ```
 *
 * @module
 */

export {
  BIOCONTEXT_REGISTRY_URL,
  type BioContextDirectoryOptions,
  createBioContextDirectory,
} from "./biocontext.ts";
export {
  bundleLaunch,
  type BundleManifest,
  downloadBundle,
  MAX_BUNDLE_BYTES,
  unpackBundle,
} from "./bundle.ts";
export {
  DirectoryError,
  type DirectoryErrorCode,
  type DirectoryErrorOptions,
  isDirectoryError,
} from "./errors.ts";
export {
  createOfficialDirectory,
  OFFICIAL_REGISTRY_URL,
  type OfficialDirectoryOptions,
} from "./official.ts";
export {
  type BundleStep,
  localName,
  type PlanOptions,
  planServer,
  type ServerPlan,
} from "./plan.ts";
export {
  argumentName,
  type LaunchOption,
  launchOptions,
  type Requirement,
} from "./requirements.ts";
export {
  getServer,
  type GetServerOptions,
  searchServers,
  type SearchServersOptions,
  type SearchServersPage,
} from "./search.ts";
export {
  type KeyValueInput,
  type PackageTransport,
  parseServerJson,
  SERVER_NAME_PATTERN,
  type ServerArgument,
  type ServerIcon,
  type ServerInput,
  type ServerInputWithVariables,
  type ServerJson,
  type ServerPackage,
  type ServerRemote,
  withSafeIcons,
} from "./server_json.ts";
export type {
  DirectoryCommand,
  DirectoryEntry,
  DirectoryGetOptions,
  DirectoryHttpOptions,
  DirectoryPage,
  DirectorySearchOptions,
  EntryStatus,
  ServerDirectory,
  ToolPreview,
} from "./types.ts";
export {
  checkLaunchCommand,
  commandWarnings,
  describeLaunch,
  isSecretName,
  type LaunchDescription,
  shellQuote,
  type ShownValue,
} from "../policy/launch.ts";
