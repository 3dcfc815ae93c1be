// Fixtures of the approvals tests (approvals.test.ts, approvals_stand_ins.test.ts): a skill
// document, a catalog over in-memory skill sources (user, community, built-ins) with one host
// function, and the approvals diagnostics' messages of a catalog.
import {
  createBuiltinSource,
  createCatalog,
  createResolver,
  createStorageSource,
  type Storage,
} from "../../lib/mod.ts";
import type { ApprovalPolicy } from "../../lib/catalog/mod.ts";

/** A skill document named `name` about sorting BAM files, with `body`. */
export const SKILL = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${name} notes for sorting BAM files. Use when sorting.\n---\n${body}\n`;

/** What {@link build} builds a catalog of. */
export interface Setup {
  user: Storage;
  community?: Storage;
  approvals: Storage;
  local: ApprovalPolicy;
  builtin?: boolean;
}

/** A catalog of the user's (and the community's, the built-in) skills and `notify`; remote required. */
export function build({ user, community, approvals, local, builtin }: Setup) {
  return createCatalog({
    resolver: createResolver({
      sources: [
        createStorageSource({ label: "user", storage: user }),
        ...(community ? [createStorageSource({ label: "community", storage: community })] : []),
        ...(builtin ? [createBuiltinSource()] : []),
      ],
    }),
    functions: [{ name: "notify", description: "Tell the user", handler: () => "ok" }],
    approvals: { storage: approvals, local, remote: "require" },
  });
}

/** The messages of a catalog's approvals diagnostics, in order. */
export const messages = (
  catalog: { diagnostics: readonly { source: string; message: string }[] },
) => catalog.diagnostics.filter((d) => d.source === "approvals").map((d) => d.message);
