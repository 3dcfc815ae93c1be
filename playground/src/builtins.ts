// The built-in skills for the views' resolver: listed from a small index the build makes of the
// library's summaries (name, description, digest, location: what the Skills view shows, ~20 kB
// gzip), so the first view does not load the texts (~185 kB gzip) or the keywords (~90 kB). A
// body loads from the library's source when a skill is opened. The catalog (Request → prompt,
// Approvals) ranks with the library's own source, keywords and all (state.svelte.ts).
import { createBuiltinSource, type SkillSource } from "@skillmux/core";

/** The index: every name, and the summaries of the skills that parse. */
interface BuiltinIndex {
  names: string[];
  summaries: Array<{ name: string; description: string; digest: string; location: string }>;
}

let index: Promise<BuiltinIndex> | undefined;
const load = () =>
  index ??= import("virtual:builtin-index").then((m) => m.default as BuiltinIndex).catch((error) => {
    index = undefined;
    throw error;
  });

/** A `builtin` source that lists from the index and reads bodies from the library's table. */
export function builtinListingSource(): SkillSource {
  const full = createBuiltinSource();
  return {
    label: "builtin",
    get: (name, options) => full.get(name, options),
    list: async () => [...(await load()).names],
    peek: async (name) => (await load()).names.includes(name),
    summaries: async () => (await load()).summaries,
  };
}
