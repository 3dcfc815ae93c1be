/**
 * The built-in skill texts as a module, for bundles that do not ship the package's JSON file
 * beside them (a single file without assets): pass it to `createBuiltinSource`. Importing this
 * entry puts about 480 kB (125 kB gzip) into your bundle; the default source loads the same
 * table by URL instead.
 *
 * @example
 * ```ts
 * import { createBuiltinSource, createResolver } from "@skillmux/core";
 * import { BUILTIN_SKILLS } from "@skillmux/core/builtin-skills";
 * const resolver = createResolver({ sources: [createBuiltinSource({ skills: BUILTIN_SKILLS })] });
 * console.log((await resolver.resolve("samtools")).source); // "builtin"
 * ```
 *
 * @module
 */

export { BUILTIN_SKILLS } from "./_builtin_skills.ts";
