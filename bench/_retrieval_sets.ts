// Private: the retrieval bench's data. MetaTool's 199 tools and its 2,000 development queries
// (../shared/corpora/metatool, MIT), the 45 published Agent Skills of
// ../shared/corpora/k-dense-skills (MIT) as a skill source, and this bench's own request sets
// (bench/retrieval/*.jsonl, written here; "split" dev or check).

import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import type { SkillSource } from "../lib/mod.ts";

/**
 * `shared/corpora/` beside the checkout (`../shared/corpora` of the repository root), or beside
 * one of its parent folders (a worktree under the main checkout's parent); `SKILLMUX_CORPORA`
 * names it outright.
 */
function corpora(): URL {
  const given = globalThis.process?.env?.SKILLMUX_CORPORA;
  if (given) return new URL(`file://${given.replace(/\/?$/, "/")}`);
  for (let up = new URL("../../", import.meta.url); up.pathname !== "/"; up = new URL("../", up)) {
    const here = new URL("shared/corpora/", up);
    if (existsSync(here)) return here;
  }
  throw new Error("shared/corpora/ not found beside the checkout (set SKILLMUX_CORPORA)");
}
const CORPORA = corpora();

/** One labelled request of a set. */
export interface Labelled {
  request: string;
  expected: string[] | "none";
  split?: "dev" | "check";
}

/** JSON Lines of `{request, expected, split?}`; `//` lines and blank lines skipped. */
export function readLabelled(text: string): Labelled[] {
  return text.split("\n").filter((l) => l.trim() !== "" && !l.trimStart().startsWith("//"))
    .map((l) => {
      const row = JSON.parse(l);
      return { ...row, expected: row.expected === "none" ? "none" : [row.expected].flat() };
    });
}

/** This bench's set `name` (bench/retrieval/<name>.jsonl). */
export async function benchSet(name: string): Promise<Labelled[]> {
  return readLabelled(
    await readFile(new URL(`./retrieval/${name}.jsonl`, import.meta.url), "utf8"),
  );
}

/** MetaTool's tools (name, description) and development queries. */
export async function metaTool(): Promise<{
  tools: Array<{ name: string; description: string }>;
  queries: Labelled[];
}> {
  const dir = new URL("metatool/", CORPORA);
  const tools = JSON.parse(await readFile(new URL("tools.json", dir), "utf8"));
  const queries = readLabelled(await readFile(new URL("dev-queries.jsonl", dir), "utf8"));
  return { tools, queries };
}

/** The published Agent Skills as a skill source labelled `community`: each folder's SKILL.md. */
export async function kDenseSource(): Promise<SkillSource> {
  const dir = new URL("k-dense-skills/", CORPORA);
  const names: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) names.push(entry.name);
  }
  names.sort();
  const texts = new Map<string, string>();
  for (const name of names) {
    texts.set(name, await readFile(new URL(`${name}/SKILL.md`, dir), "utf8"));
  }
  return {
    label: "community",
    list: () => Promise.resolve(names),
    get: (name) => {
      const text = texts.get(name);
      return Promise.resolve(
        text === undefined ? undefined : { text, location: `k-dense-skills/${name}/SKILL.md` },
      );
    },
  };
}
