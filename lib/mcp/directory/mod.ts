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

export * from "./errors.ts";
export * from "./server_json.ts";
export type * from "./types.ts";
export * from "./official.ts";
export * from "./biocontext.ts";
export * from "./search.ts";
export * from "./requirements.ts";
export * from "./plan.ts";
export * from "./bundle.ts";
export * from "../policy/launch.ts";
