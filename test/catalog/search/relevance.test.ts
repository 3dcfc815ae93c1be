// Relevance, not rank alone: keyword selection keeps only entries whose name, tags, example
// tasks or description hold the request's specific words; everyday words ("call", "sort",
// "map") do not make an entry relevant; when nothing fits, nothing is selected and the
// selection says why. The model may answer that nothing fits, too.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createBuiltinSource,
  createCatalog,
  createResolver,
  selectForRequest,
} from "../../../lib/mod.ts";
import { createKeywordIndex } from "../../../lib/catalog/mod.ts";

const catalog = await createCatalog({
  resolver: createResolver({ sources: [createBuiltinSource()] }),
  functions: [{
    name: "echo",
    description: "Echoes back the text it is given",
    handler: ({ text }) => text,
  }],
});

test("requests no entry fits select nothing, with a reason", async () => {
  for (
    const request of [
      "what's the weather in Paris tomorrow?",
      "add 17 and 25 together",
      "explain the difference between let and const in JavaScript",
      "sort this list of names alphabetically",
      "remind me to call my mother tomorrow at 6 pm",
    ]
  ) {
    const selection = await selectForRequest(catalog, request);
    assert.deepEqual([selection.skills, selection.tools], [[], []], request);
    assert.match(selection.reason ?? "", /^Nothing in the catalog fits/, request);
  }
});

test('"call" a tool is not variant calling: the tool only, no somatic-variant skill', async () => {
  const selection = await selectForRequest(catalog, "call the echo tool with hello");
  assert.deepEqual([selection.skills, selection.tools], [[], ["echo"]]);
  assert.equal(selection.reason, undefined);
  const calling = await selectForRequest(catalog, "call somatic mutations in a tumor-normal pair");
  assert.ok(calling.skills.includes("mutect2"), calling.skills.join());
});

test("a request that fits still selects, best first", async () => {
  const selection = await selectForRequest(catalog, "sort and index my BAM file");
  assert.equal(selection.skills[0], "samtools");
  assert.equal(selection.reason, undefined);
});

test("evidence weighs fields: a name word beats the same word in prose; everyday words count a third", async () => {
  const index = await createKeywordIndex([
    { id: "gzip", name: "gzip", description: "Compress files" },
    { id: "notes", name: "notes", description: "Keep notes", keywords: ["use gzip to shrink"] },
    { id: "peaks", name: "peaks", description: "Find peaks", tags: ["peak-calling"] },
  ]);
  const byId = (q: string) => Object.fromEntries(index.search(q).map((h) => [h.id, h.evidence]));
  // The name (3, and 1 more for naming the entry whole) against prose that only quotes another
  // entry's name (0.5, a third for quoting, half for lacking any word of its own: 0.06 with the
  // word's specificity).
  const gzip = byId("gzip");
  assert.ok(gzip.gzip >= 3 && gzip.notes < 0.1, JSON.stringify(gzip));
  assert.ok(byId("call peaks").peaks >= 3, JSON.stringify(byId("call peaks"))); // name + tag / 3
  assert.ok(byId("call").peaks < 0.5, JSON.stringify(byId("call"))); // everyday, unanchored
});

test("the model may answer that nothing fits: none, an empty answer, empty lists", async () => {
  for (const answer of ["none", "", "None.", '{"skills": [], "tools": []}']) {
    const selection = await selectForRequest(catalog, "what's the weather in Paris?", {
      llm: () => Promise.resolve(answer),
    });
    assert.equal(selection.via, "llm", JSON.stringify(answer));
    assert.equal(selection.fallback, undefined);
    assert.deepEqual([selection.skills, selection.tools], [[], []]);
    assert.match(selection.reason ?? "", /^Nothing in the catalog fits: the model chose/);
  }
});

test("the prompt tells the model to answer with empty lists when nothing fits", async () => {
  let system = "";
  await selectForRequest(catalog, "hello", {
    llm: (messages) => (system = messages[0].content, Promise.resolve("none")),
  });
  assert.match(system, /When nothing in the catalog fits the request[^\n]*empty lists/);
});

test("feedback: the user's labelled requests rank the entries they name; without it, as before", async () => {
  const sources = () => createResolver({ sources: [createBuiltinSource()] });
  const request = "how deep is the coverage of these targets?";
  assert.equal(catalog.rank(request)[0].entry.id, "deepvariant", "the homonym wins unaided");
  const told = await createCatalog({
    resolver: sources(),
    feedback: [
      { request: "how deep is the coverage over my exome targets", expected: ["mosdepth"] },
      // "none" labels say nothing about an entry; a label naming no entry is reported.
      { request: "how deep is the ocean", expected: "none" },
      { request: "deep coverage of targets", expected: ["no-such-skill"] },
    ],
  });
  assert.equal(told.rank(request)[0].entry.id, "mosdepth");
  assert.deepEqual(
    told.diagnostics.filter((d) => d.source === "feedback").map((d) => [d.id, d.problem]),
    [["no-such-skill", "invalid"]],
  );
  // Only the entries named: another request ranks as it does without feedback.
  const other = "sort and index a BAM file";
  assert.deepEqual(
    told.rank(other).map((r) => r.entry.id),
    (await createCatalog({ resolver: sources() })).rank(other).map((r) => r.entry.id),
  );
  // Reversible: a catalog without it ranks as before.
  const plain = await createCatalog({ resolver: sources() });
  assert.equal(plain.rank(request)[0].entry.id, "deepvariant");
  told.dispose();
  plain.dispose();
});

test("a lone word of a name is a homonym when the rest of the request pulls away", async () => {
  // "salmon" alone in a request about cooking: the words no entry holds count against.
  const cooking = await selectForRequest(catalog, "salmon recipe for the oven");
  assert.deepEqual([cooking.skills, cooking.tools], [[], []]);
  assert.ok(catalog.rank("salmon recipe for the oven")[0].evidence < 2);
  // The same name with words of its field fits.
  const fits = await selectForRequest(catalog, "quantify my transcripts with salmon");
  assert.equal(fits.skills[0], "salmon");
});

test("a product name the catalog lacks weighs against every entry (2, the floor)", async () => {
  const index = await createKeywordIndex([
    { id: "fold", name: "fold_protein", description: "Predict protein structure from sequence" },
    { id: "other", name: "send_mail", description: "Send an email" },
  ]);
  const evidence = (q: string) => index.search(q).find((h) => h.id === "fold")!.evidence;
  const base = evidence("predict the protein structure of my sequence");
  assert.ok(base >= 2, String(base));
  // Capitalised inside a sentence after "with", or mixed case: a product.
  assert.equal(evidence("predict the protein structure of my sequence with Rosetta"), base - 2);
  assert.equal(evidence("predict the protein structure of my sequence in DESeq2"), base - 2);
  // A plain word no entry holds is not a product: it counts against lone matches only.
  assert.equal(evidence("predict the protein structure of my sequence with care"), base);
});

test("a request word that is an entry's whole name ranks that entry over one that quotes it", async () => {
  const text = "Aligns long reads to a reference genome";
  const index = await createKeywordIndex([
    { id: "a-quoter", name: "polisher", description: text, tags: ["kallisto"] },
    { id: "kallisto", name: "kallisto", description: text, tags: ["polisher"] },
  ]);
  const [first, second] = index.search("kallisto long reads");
  assert.equal(first.id, "kallisto");
  assert.ok(first.score > second.score);
  assert.ok(first.evidence > second.evidence);
});

test("a command line of an entry's own program ranks it over the entries that quote that command", async () => {
  // racon's and ngmlr's examples quote minimap2's command line; trim-galore's quote cutadapt's.
  const ranked = (q: string) => catalog.rank(q, { limit: 3 }).map((r) => r.entry.id);
  assert.equal(ranked("minimap2 -ax map-ont ref.fa reads.fq | samtools sort")[0], "minimap2");
  assert.equal(ranked("cutadapt -a AGATCGGAAGAGC -o trimmed.fq reads.fq")[0], "cutadapt");
  // An adapter sequence is data, not an acronym the catalog lacks: cutadapt is selected.
  const s = await selectForRequest(catalog, "cutadapt -a AGATCGGAAGAGC -o trimmed.fq reads.fq");
  assert.equal(s.skills[0], "cutadapt");
  // The quoting entry keeps its own words: the same prose without the named program ranks it.
  const index = await createKeywordIndex([
    {
      id: "mapper",
      name: "mapper",
      description: "Map long reads",
      keywords: ["mapper -x ont-reads ref.fa reads.fq > out.paf"],
    },
    {
      id: "polisher",
      name: "polisher",
      description: "Polish an assembly",
      keywords: [
        "mapper -x ont-reads ref.fa reads.fq > overlaps.paf",
        "mapper -x ont-reads draft.fa reads.fq > overlaps.paf",
        "polisher reads.fq overlaps.paf draft.fa",
      ],
    },
  ]);
  const quoted = index.search("mapper -x ont-reads ref.fa reads.fq");
  assert.equal(quoted[0].id, "mapper");
  const own = index.search("polish an assembly of ont-reads");
  assert.equal(own[0].id, "polisher");
});

test("a file name of a request matches file types an entry handles, not a skill's example files", async () => {
  const index = await createKeywordIndex([
    { id: "reader", name: "reader", description: "Read BAM files and report their flags" },
    {
      id: "quoter",
      name: "quoter",
      description: "Call peaks",
      tags: ["chip-seq"],
      tasks: ["call peaks of a ChIP-seq sample"],
      keywords: ["quoter --in tumor.bam --out peaks.bed"],
    },
    // A tool's other words are its parameters: "Path to the BAM file" is a file type it takes.
    {
      id: "tool",
      name: "index_alignments",
      description: "Build an index",
      keywords: ["Path to the BAM file"],
    },
  ]);
  assert.deepEqual(index.search("look at tumor.bam").map((h) => h.id).sort(), ["reader", "tool"]);
  // The word itself, not a file name, still finds the example.
  assert.ok(index.search("peaks of a bam --out").some((h) => h.id === "quoter"));
});

test("a lone word of a rich entry is a homonym when two words or more pull away; a one-line tool's is not", async () => {
  // bcl-convert's tags hold "sample sheet": one word of it, with pivot, Excel and sales against.
  const pivot = await selectForRequest(
    catalog,
    "create a pivot table in Excel from the sales sheet",
  );
  assert.deepEqual([pivot.skills, pivot.tools], [[], []]);
  assert.equal(
    (await selectForRequest(catalog, "fill in the sample sheet for the run")).skills[0],
    "bcl-convert",
  );
  const sickle = await selectForRequest(catalog, "sickle cell anemia symptoms in children");
  assert.deepEqual(sickle.skills, []);
  // A tool of one line holds one word of most requests that fit it: words against do not drop it.
  const index = await createKeywordIndex([
    { id: "podcasts", name: "podcast_search", description: "Search podcast episodes" },
    { id: "mail", name: "send_mail", description: "Send an email" },
  ]);
  const hit = index.search("any podcast about growing tomatoes on a balcony")[0];
  assert.equal(hit.id, "podcasts");
  assert.ok(hit.evidence >= 2, String(hit.evidence));
});

test("a tool the catalog lacks weighs toward nothing fits, also for the entries that mention it", async () => {
  // htseq's tags mention DESeq2 (its counts feed it); no entry is DESeq2.
  const deseq = await selectForRequest(catalog, "run DESeq2 on my count matrix in R");
  assert.deepEqual(deseq.skills, []);
  // An acronym brought in by "with" is a tool's name, not an abbreviation.
  const regenie = await selectForRequest(catalog, "run a GWAS with REGENIE on UK Biobank data");
  assert.deepEqual(regenie.skills, []);
  // Named entries are what the request asks for: they still fit.
  assert.equal(
    (await selectForRequest(catalog, "count reads per gene with htseq")).skills[0],
    "htseq",
  );
  // Platforms and molecules in mixed case are not tools ("PacBio", "rRNA", "UMIs").
  assert.equal((await selectForRequest(catalog, "align PacBio HiFi reads")).skills[0], "minimap2");
  assert.ok(
    (await selectForRequest(catalog, "move the UMIs from read 1 into the read name")).skills
      .includes("fastp"),
  );
});

test("a description weighs like tags only where it is all an entry says (no tags, tasks or body)", async () => {
  const body = Array.from({ length: 50 }, (_, i) => `step ${i} of the workflow uses option${i}`);
  const index = await createKeywordIndex([
    { id: "line", name: "one_line", description: "Render a heatmap" },
    { id: "bodied", name: "with_body", description: "Render a heatmap", keywords: body },
    { id: "other", name: "send_mail", description: "Send an email" },
  ]);
  const hits = index.search("heatmap please");
  const of = (id: string) => hits.find((h) => h.id === id)!.evidence;
  // 2 and 1.5 times the same specificity.
  assert.equal(Math.round(of("line") / of("bodied") * 100) / 100, 1.33);
});

test("a one-line tool named by the request fits with one word against; two pull it away", async () => {
  const index = await createKeywordIndex([
    { id: "weather", name: "weather", description: "Forecast for a city" },
    { id: "mail", name: "send_mail", description: "Send an email" },
  ]);
  const of = (q: string) => index.search(q).find((h) => h.id === "weather")!.evidence;
  assert.ok(of("weather for my wedding") >= 2, String(of("weather for my wedding")));
  assert.ok(of("weather for my wedding reception banquet") < 2);
  // A skill's name alone with a word against stays a homonym ("salmon recipe for the oven").
  assert.deepEqual((await selectForRequest(catalog, "salmon recipe for the oven")).skills, []);
});

test("a word that is only part of a compound tag weighs as prose: a tag is one concept", async () => {
  const index = await createKeywordIndex([
    {
      id: "aligner",
      name: "protaligner",
      description: "Align protein queries against a protein database",
      tags: ["protein-search", "functional-annotation"],
    },
    {
      id: "plain",
      name: "annotator",
      description: "Adds labels to genomes",
      tags: ["function", "genomes"],
    },
  ]);
  const hit = (q: string, id: string) => index.search(q).find((h) => h.id === id);
  // "function" of "functional-annotation" alone: the description's weight (1.5), not a tag's (2).
  const part = hit("write a Python function", "aligner")!;
  const whole = hit("write a Python function", "plain")!;
  assert.ok(part.evidence < whole.evidence, `${part.evidence} < ${whole.evidence}`);
  assert.ok(part.evidence < 2, String(part.evidence));
  // Both words of the tag asked: the tag's weight, and the entry fits.
  const both = hit("functional annotation of my proteins", "aligner")!;
  assert.ok(both.evidence >= 2, String(both.evidence));
  // The rank is BM25's, unchanged by the weighing: the aligner still ranks for its tag word.
  assert.ok(part.score > 0);
});

test("two words the catalog writes together are one concept: they do not outweigh two concepts", async () => {
  // Mappers for other reads, two of them to a reference: "map" and "reference" are common words.
  const others = ["bisulfite", "rna", "exome", "amplicon", "chip", "hic", "atac", "cell"].map(
    (k, i) => ({
      id: `${k}-mapper`,
      name: `${k}mapper`,
      description: `Map ${k} reads to a ${i < 2 ? "reference " : ""}genome`,
      tags: [k],
    }),
  );
  const index = await createKeywordIndex([
    {
      id: "trimmer",
      name: "chopper",
      description: "Trim adapters from Oxford Nanopore reads",
      tags: ["oxford-nanopore", "adapter-trimming"],
    },
    {
      id: "filter",
      name: "lengthfilter",
      description: "Filter Oxford Nanopore reads by length and quality",
      tags: ["oxford-nanopore", "read-filtering"],
    },
    {
      id: "mapper",
      name: "longmapper",
      description:
        "Map long nanopore reads to a reference genome, with presets for nanopore and PacBio reads",
      tags: ["read-mapping", "nanopore"],
    },
    ...others,
  ]);
  const ids = (q: string) => index.search(q).map((h) => h.id);
  // "Oxford" is written beside "Nanopore" wherever it is: the trimmer and the filter hold one
  // concept of the request, the mapper three ("map", "nanopore", "reference"). Counted as two
  // words, "Oxford Nanopore" put the trimmer first.
  assert.equal(ids("map Oxford Nanopore reads to the reference")[0], "mapper");
  // Each entry still ranks for its own task.
  assert.equal(ids("trim adapters from Oxford Nanopore reads")[0], "trimmer");
  assert.equal(ids("filter Oxford Nanopore reads by length")[0], "filter");
});

test('"write a Python function that reverses a linked list" fits no built-in skill', async () => {
  const selection = await selectForRequest(
    catalog,
    "write a Python function that reverses a linked list",
  );
  assert.deepEqual([selection.skills, selection.tools], [[], []]);
});
