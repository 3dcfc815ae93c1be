// Private: how "." loads its large optional data. By default by URLs built at run time beside the
// modules (so a bundler does not inline them; see lib/catalog/build/tokens.ts and
// lib/resolve/builtin_source.ts). Deno's entry, lib/mod_deno.ts, sets literal imports here instead,
// which Deno sees: they then load without --allow-read and ship with `deno compile`.

/** The loaders an entry may set; unset ones fall back to the run-time URL. */
export const loaders: {
  /** The built-in skill texts, by name. */
  builtinSkills?: () => Promise<Readonly<Record<string, string>>>;
  /** The built-in skills' names and listing summaries (lib/resolve/_builtin_summary.ts). */
  builtinSummaries?: () => Promise<unknown>;
  /** The o200k tokenizer module. */
  tokenizer?: () => Promise<{ countO200kTokens(text: string): number }>;
} = {};
