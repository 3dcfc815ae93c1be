/**
 * Serve skills over MCP (Deno and Node): `serveSkills` exposes a folder of skills, the built-in
 * skills or any resolver as a Streamable HTTP MCP server with `skill://<name>` resources and the
 * tools `search_skills` and `get_skill`.
 *
 * @example
 * ```ts
 * import { serveSkills } from "@skillmux/core/server";
 * const server = await serveSkills(); // the built-in skills on 127.0.0.1, any free port
 * console.log(server.url); // e.g. "http://127.0.0.1:41234/mcp"
 * await server.close();
 * ```
 *
 * @module
 */

export { serveSkills } from "./serve.ts";
export type { ServeSkillsOptions, SkillsServer } from "./types.ts";
