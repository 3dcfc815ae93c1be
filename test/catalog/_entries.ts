// Fixtures of catalog entries for the catalog tests: a host function that answers its own name,
// five such functions, a remote tool taking a query, and a skill document of a name, a
// description and tags, with a one-line body.
import type { HostFunction } from "../../lib/mod.ts";
import type { TestTool } from "./_servers.ts";

/** A host function `name` described as `description`, whose handler answers its name. */
export const fn = (name: string, description: string): HostFunction => ({
  name,
  description,
  handler: () => name,
});

/** A SKILL.md of `name`, `description` and (when any) `tags`, whose body is `Notes.` */
export const skillDoc = (name: string, description: string, tags: string[] = []) =>
  `---\nname: ${name}\ndescription: ${description}\n${
    tags.length > 0 ? `tags: [${tags.join(", ")}]\n` : ""
  }---\nNotes.\n`;

/** Five host functions, two of them about BAM files, in id order. */
export const FIVE_FUNCTIONS: HostFunction[] = [
  fn("archive", "Archive finished runs"),
  fn("bam_stats", "Statistics of a BAM file"),
  fn("cleanup", "Remove temporary files"),
  fn("demux", "Demultiplex a sequencing run"),
  fn("export_bam", "Export a BAM file to the archive"),
];

/** A remote tool `name` described as `description`, taking a string `q` ("Query"). */
export const queryTool = (name: string, description: string): TestTool => ({
  name,
  description,
  inputSchema: { type: "object", properties: { q: { type: "string", description: "Query" } } },
});
