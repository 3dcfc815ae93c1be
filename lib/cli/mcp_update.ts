// `skillmux mcp update <name> …`: change a registered server in place (its id stays).

import { skillResources } from "../resolve/skill_resources.ts";
import type { ServerPatch } from "../mcp/registry/records.ts";
import { splitCommand, str, UsageError } from "./_args.ts";
import type { Command } from "./_command.ts";
import { printJson } from "./_context.ts";
import { headers, onServer, view } from "./_mcp_view.ts";
import { upgrade, UPGRADE_HELP } from "./mcp_upgrade.ts";

/** `mcp update`: validated like `add`; reconnects when the way to reach the server changes. */
export const update: Command = {
  words: ["mcp", "update"],
  args: "<name> [options]",
  min: 1,
  summary:
    "Change a registered server (checked, and reconnected when its address changes), or move one from an MCP registry to its newer version",
  options: [
    "--name <n>          rename (the id stays)",
    "--url <u>           new URL",
    '--command "<cmd>"   new stdio command',
    "--api-key <k>       new API key; --no-api-key removes it",
    '--header "K: V"     replace the headers (repeatable); --no-headers removes them',
    "--description <d>   new description; an empty one removes it",
    "--enable, --disable turn the server on or off",
    "--no-verify         save without connecting",
    ...UPGRADE_HELP,
  ],
  spec: {
    name: { type: "string" },
    url: { type: "string" },
    command: { type: "string" },
    "api-key": { type: "string" },
    "no-api-key": { type: "boolean" },
    header: { type: "string", multiple: true },
    "no-headers": { type: "boolean" },
    description: { type: "string" },
    enable: { type: "boolean" },
    disable: { type: "boolean" },
    "no-verify": { type: "boolean" },
    check: { type: "boolean" },
    to: { type: "string" },
    set: { type: "string", multiple: true },
    yes: { type: "boolean" },
  },
  async run(ctx, [target], values) {
    const patch: ServerPatch = {};
    const name = str(values, "name");
    if (name !== undefined) patch.name = name;
    const url = str(values, "url");
    if (url !== undefined) patch.url = url;
    const line = str(values, "command");
    if (line !== undefined) {
      const [command, ...args] = splitCommand(line);
      Object.assign(patch, { command, args });
    }
    const apiKey = str(values, "api-key");
    if (apiKey !== undefined) patch.apiKey = apiKey;
    if (values["no-api-key"] === true) patch.apiKey = null;
    const extra = headers(values);
    if (extra) patch.headers = extra;
    if (values["no-headers"] === true) patch.headers = null;
    const description = str(values, "description");
    if (description !== undefined) patch.description = description === "" ? null : description;
    if (values.enable === true && values.disable === true) {
      throw new UsageError("skillmux mcp update: give --enable or --disable, not both");
    }
    if (values.enable === true) patch.enabled = true;
    if (values.disable === true) patch.enabled = false;
    if (Object.keys(patch).length === 0) {
      // No change given: a server from an MCP registry is checked for a newer version.
      const found = await (await ctx.registry()).get(target);
      if (found?.origin) return await upgrade(ctx, target, values);
      throw new UsageError("skillmux mcp update: nothing to change (see --help)");
    }
    const registry = await ctx.registry();
    const { server, discovery } = await onServer(ctx, target, () =>
      registry.update(target, patch, {
        ...(values["no-verify"] === true ? { discover: false } : {}),
        timeoutMs: 10_000,
      }));
    if (ctx.json) return printJson(ctx, { server: view(server), discovery }), 0;
    const found = discovery
      ? ` — ${skillResources(discovery.resources).length} skills, ${discovery.tools.length} tools`
      : "";
    ctx.out(`${ctx.paint.ok("✓")} Updated "${server.name}" (${server.id})${found}`);
    return 0;
  },
};
