// Private: the mcpb step of `mcp add --from-registry`: download, verify the sha256, unpack into
// <config>/bundles/<name>-<sha>/ and put the manifest's command in the plan. Until the server is
// saved the folder is removed again on any failure or a "no".

import { rm } from "node:fs/promises";
import { join } from "node:path";
import { bundleLaunch, downloadBundle, unpackBundle } from "../mcp/directory/bundle.ts";
import type { ServerPlan } from "../mcp/directory/plan.ts";
import { describeLaunch } from "../mcp/policy/launch.ts";
import { type Context, ensureConfigDir } from "./_context.ts";
import { askMissing } from "./_ask.ts";

export async function prepareBundle(
  ctx: Context,
  plan: ServerPlan,
): Promise<{ plan: ServerPlan; cleanup: () => Promise<void> }> {
  const step = plan.bundle!;
  ctx.err(
    ctx.paint.dim(`Downloading ${step.url} (checked against sha256 ${step.sha256.slice(0, 12)}…)`),
  );
  const bytes = await downloadBundle(step, { signal: ctx.io.signal });
  const folder = join(
    await ensureConfigDir(ctx),
    "bundles",
    `${plan.config.name}-${step.sha256.slice(0, 12)}`,
  );
  await rm(folder, { recursive: true, force: true });
  const cleanup = () => rm(folder, { recursive: true, force: true });
  try {
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(folder, ".."), { recursive: true, mode: 0o700 });
    const manifest = await unpackBundle(bytes, folder);
    const values = { ...(plan.config.origin.values ?? {}) };
    let launch = bundleLaunch(manifest, folder, values);
    await askMissing(ctx, `"${plan.config.name}"`, launch.missing, values);
    if (launch.missing.length) launch = bundleLaunch(manifest, folder, values);
    const env = { ...launch.env, ...(plan.config.env ?? {}) };
    const config = {
      ...plan.config,
      command: launch.command,
      args: launch.args,
      ...(Object.keys(env).length ? { env } : {}),
    };
    const secrets = [...plan.secrets, ...launch.secrets];
    return {
      plan: { ...plan, config, secrets, launch: describeLaunch(config, secrets) },
      cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
