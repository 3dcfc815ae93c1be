// Private: what a browser bundle of the npm package gets in place of _fs_defaults.ts (package.json
// "browser" maps one to the other), so a bundle that cannot split (one file) does not carry the
// filesystem storage and the stdio transport, about 6 KiB gzip that no browser can run.
// default_sources.ts loads it only where Node's built-ins are present: a browser bundle run by
// Node or Deno, which gets a clear error instead.

import type { DefaultSkillFolders, DefaultSourcesOptions } from "./default_options.ts";
import type { SourceTier } from "./types.ts";

const WHY = 'this bundle of @skillmux/core was built for browsers (package.json "browser"), ' +
  "without the filesystem defaults: bundle for Node or Deno (esbuild --platform=node, Vite SSR), " +
  "or pass the sources to createResolver";

/** No folders in a browser bundle: throws, saying why. */
export function skillFolders(_options: DefaultSourcesOptions = {}): DefaultSkillFolders {
  throw new Error(`Cannot locate the default skill folders: ${WHY}`);
}

/** No filesystem sources in a browser bundle: rejects, saying why. */
export function fsSources(_options: DefaultSourcesOptions = {}): Promise<SourceTier[]> {
  return Promise.reject(new Error(`Cannot read the default skill folders: ${WHY}`));
}

/** The built-ins, as `options.builtin` says (there is no environment or config file to read). */
export function builtinEnabled(options: DefaultSourcesOptions = {}): Promise<boolean> {
  return Promise.resolve(options.builtin !== false);
}
