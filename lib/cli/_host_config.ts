// Private: the MCP host configuration that runs `skillmux serve --stdio` (`serve --print-config`).
//
// The command is npx with both packages named: the bin is `skillmux` in `@skillmux/core`, and the
// server needs `@modelcontextprotocol/sdk`, an optional peer dependency npx would not install.
// `-y` because a host cannot answer npx's install prompt.

import { CliError } from "./_args.ts";

/** The hosts `--for` accepts. */
export const HOSTS = ["claude", "cursor", "vscode"] as const;

const NPX_ARGS = ["-y", "-p", "@skillmux/core", "-p", "@modelcontextprotocol/sdk", "skillmux"];

/**
 * The JSON to add to a host's MCP configuration for `skillmux <args>`: `mcpServers` for Claude
 * Desktop, Claude Code and Cursor (the default), `servers` with `type: "stdio"` for VS Code.
 */
export function hostConfig(host: string | undefined, args: string[]): Record<string, unknown> {
  const entry = { command: "npx", args: [...NPX_ARGS, ...args] };
  switch (host ?? "claude") {
    case "claude":
    case "cursor":
      return { mcpServers: { skillmux: entry } };
    case "vscode":
      return { servers: { skillmux: { type: "stdio", ...entry } } };
    default:
      throw new CliError(`Unknown --for "${host}": expected one of ${HOSTS.join(", ")}`);
  }
}
