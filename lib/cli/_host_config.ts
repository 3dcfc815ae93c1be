// Private: the MCP host configuration that runs `skillmux serve --stdio` (`serve --print-config`):
// an entry that runs on this machine (see `cliCommand`): npx from the registry only when skillmux
// itself came that way, else this runtime and this installation's file by absolute path, so it
// works before the package is on a registry (a clone, a packed tarball).

import { CliError } from "./_args.ts";
import { cliCommand } from "./_invocation.ts";

/** The hosts `--for` accepts. */
export const HOSTS = ["claude", "cursor", "vscode"] as const;

/**
 * The JSON to add to a host's MCP configuration for `skillmux <args>`: `mcpServers` for Claude
 * Desktop, Claude Code and Cursor (the default), `servers` with `type: "stdio"` for VS Code.
 */
export function hostConfig(
  host: string | undefined,
  args: string[],
  url?: string,
): Record<string, unknown> {
  const entry = cliCommand(args, url);
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
