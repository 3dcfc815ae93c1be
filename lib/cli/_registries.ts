// Private: the MCP registries `skillmux mcp search` and `mcp add --from-registry` read (called
// server directories in the library): `[[mcp.registries]]` in config.toml, else the official
// registry; `--registry` picks one by name, URL or folder (a folder is a BioContext copy).
//
//   [[mcp.registries]]
//   name = "official"
//   url = "https://registry.modelcontextprotocol.io"
//
//   [[mcp.registries]]
//   name = "bio"
//   kind = "biocontext"          # the BioContext format; "official" (the /v0.1/ API) is the default
//   url = "https://biocontext.ai" # or folder = "/path/to/registry" (holding servers/)

import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse } from "smol-toml";
import { createBioContextDirectory } from "../mcp/directory/biocontext.ts";
import { createOfficialDirectory, OFFICIAL_REGISTRY_URL } from "../mcp/directory/official.ts";
import type { ServerDirectory } from "../mcp/directory/types.ts";
import { createFsStorage } from "../storage/fs.ts";
import { CliError } from "./_args.ts";
import type { Context } from "./_context.ts";

/** One configured registry. */
export interface RegistrySetting {
  name: string;
  kind: "official" | "biocontext";
  url?: string;
  folder?: string;
}

/** The registries of config.toml, or the official one. */
export async function configuredRegistries(ctx: Context): Promise<RegistrySetting[]> {
  const file = join((await ctx.folders()).config, "config.toml");
  const text = await readFile(file, "utf8").catch(() => "");
  let doc: { mcp?: { registries?: unknown } };
  try {
    doc = parse(text) as typeof doc;
  } catch (error) {
    throw new CliError(`${file} is not valid TOML: ${(error as Error).message.split("\n")[0]}`);
  }
  const list = doc.mcp?.registries;
  if (list === undefined) {
    return [{ name: "official", kind: "official", url: OFFICIAL_REGISTRY_URL }];
  }
  if (!Array.isArray(list)) {
    throw new CliError(`${file}: mcp.registries must be [[mcp.registries]] tables`);
  }
  return list.map((raw, i) => {
    const where = `${file}: mcp.registries[${i}]`;
    const r = raw as Record<string, unknown>;
    const kind = r.kind ?? "official";
    if (kind !== "official" && kind !== "biocontext") {
      throw new CliError(
        `${where}.kind must be "official" or "biocontext", not ${JSON.stringify(kind)}`,
      );
    }
    for (const field of ["name", "url", "folder"]) {
      if (r[field] !== undefined && typeof r[field] !== "string") {
        throw new CliError(`${where}.${field} must be a string`);
      }
    }
    if ((r.url === undefined) === (r.folder === undefined)) {
      throw new CliError(`${where} needs a url or a folder (one of them)`);
    }
    return {
      name: (r.name as string | undefined) ?? `registry-${i + 1}`,
      kind,
      ...(r.url ? { url: r.url as string } : {}),
      ...(r.folder ? { folder: resolve(r.folder as string) } : {}),
    };
  });
}

/** The directory of one setting. */
export function directoryOf(setting: RegistrySetting): ServerDirectory {
  if (setting.folder !== undefined) {
    return createBioContextDirectory({
      storage: createFsStorage({ root: setting.folder }),
      id: `folder:${setting.folder}`,
    });
  }
  return setting.kind === "biocontext"
    ? createBioContextDirectory({ url: setting.url })
    : createOfficialDirectory({ url: setting.url });
}

/** The registries to use: the one `--registry` names (a name, URL or folder), else all configured. */
export async function chosenDirectories(
  ctx: Context,
  choice: string | undefined,
  kind?: string,
): Promise<ServerDirectory[]> {
  const settings = await configuredRegistries(ctx);
  if (choice === undefined) return settings.map((s) => directoryOf(s));
  const named = settings.find((s) => s.name === choice || s.url === choice);
  if (named) return [directoryOf(named)];
  if (kind !== undefined && kind !== "official" && kind !== "biocontext") {
    throw new CliError(`--kind must be "official" or "biocontext", not "${kind}"`);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(choice)) {
    const guess = kind ?? (/biocontext/i.test(new URL(choice).host) ? "biocontext" : "official");
    return [directoryOf({ name: choice, kind: guess as RegistrySetting["kind"], url: choice })];
  }
  const folder = resolve(choice);
  if (await stat(folder).then((s) => s.isDirectory(), () => false)) {
    return [directoryOf({ name: choice, kind: "biocontext", folder })];
  }
  const names = settings.map((s) => s.name).join(", ");
  throw new CliError(
    `--registry "${choice}" is not a configured registry (${names}), a URL or a folder`,
  );
}

/** The directory an added server came from (its origin's registry id). */
export async function originDirectory(ctx: Context, id: string): Promise<ServerDirectory> {
  const settings = await configuredRegistries(ctx);
  for (const s of settings) {
    const d = directoryOf(s);
    if (d.id === id) return d;
  }
  if (id.startsWith("folder:")) {
    return directoryOf({ name: id, kind: "biocontext", folder: id.slice(7) });
  }
  return (await chosenDirectories(ctx, id))[0];
}
