// The playground's MCP registries (server directories in the library): which one to read, and
// what adding one of its servers does — a remote is added directly; a stdio command (npm, pypi,
// docker…) goes through the npm start relay; an mcpb cannot be unpacked by a page.
import {
  createBioContextDirectory,
  createOfficialDirectory,
  type DirectoryEntry,
  OFFICIAL_REGISTRY_URL,
  planServer,
  type ServerDirectory,
  type ServerPlan,
} from "@skillmux/core/directory";

const KEY = "skillmux-playground/registry";

/** The registry the person reads: a URL and its format. */
export interface RegistryChoice {
  url: string;
  kind: "official" | "biocontext";
}

/** The last registry chosen (default: the official MCP Registry). */
export function savedChoice(): RegistryChoice {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (saved && typeof saved.url === "string" && (saved.kind === "official" || saved.kind === "biocontext")) return saved;
  } catch { /* the default */ }
  return { url: OFFICIAL_REGISTRY_URL, kind: "official" };
}

/** Remember the choice and read it. */
export function directoryFor(choice: RegistryChoice): ServerDirectory {
  localStorage.setItem(KEY, JSON.stringify(choice));
  return choice.kind === "biocontext"
    ? createBioContextDirectory({ url: choice.url })
    : createOfficialDirectory({ url: choice.url });
}

/** What adding the plan will do, in the page's terms. */
export type AddStep =
  | { kind: "remote"; plan: ServerPlan }
  | { kind: "stdio"; plan: ServerPlan }
  | { kind: "impossible"; why: string };

/** The plan of `entry` with `values`, and how the page would add it (`stdioOn`: the relay starts commands). */
export function addStep(
  entry: DirectoryEntry,
  option: number,
  values: Record<string, string>,
  stdioOn: boolean,
): AddStep {
  const plan = planServer(entry, { option, values });
  if (plan.bundle) {
    return { kind: "impossible", why: "An mcpb bundle is downloaded, checked and unpacked on disk: add it with skillmux mcp add --from-registry." };
  }
  if (plan.config.command !== undefined) {
    if (!stdioOn) {
      return {
        kind: "impossible",
        why: "It runs as a program on this machine: restart npm start with RELAY_STDIO=1 to let its relay start it, or use skillmux mcp add --from-registry.",
      };
    }
    return { kind: "stdio", plan };
  }
  return { kind: "remote", plan };
}

/** An icon is shown only from https (the library drops the rest), as an image, never as a document. */
export function iconOf(entry: DirectoryEntry): string | undefined {
  return entry.server.icons?.find((i) => i.src.startsWith("https://"))?.src;
}

/** The last search, kept while the person visits other views. */
export const found = $state({
  query: "",
  entries: [] as DirectoryEntry[],
  skipped: [] as string[],
  cursor: undefined as string | undefined,
  searched: false,
});
