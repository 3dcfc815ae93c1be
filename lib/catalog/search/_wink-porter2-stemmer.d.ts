// Types of wink-porter2-stemmer (it ships none), for `tsc`: Deno reads the package as untyped and
// `_terms.ts` gives its stem function an explicit type.
declare module "wink-porter2-stemmer" {
  /** The Porter2 stem of a lowercase English word. */
  const stem: (word: string) => string;
  export default stem;
}
