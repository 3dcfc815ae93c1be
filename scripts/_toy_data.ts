// Private: builds the toy data set of the example-run check (scripts/skill_examples.ts) in a
// folder, once: sequences from scripts/_toy_sequences.ts, then alignments and variant calls made
// with Debian's samtools, bwa, bcftools, tabix, minimap2 and the SRA Toolkit (a local .sra
// archive of the toy reads, so fasterq-dump runs offline). About 8 MB, a few seconds.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { gzipSync } from "node:zlib";
import {
  fasta,
  fastq,
  longReads,
  makeGenome,
  mutate,
  pairedReads,
  randomDna,
  rng,
  translate,
} from "./_toy_sequences.ts";
import { writeTruthData } from "./_toy_truth.ts";

/** Bump when the data changes, so a cached folder is rebuilt. */
export const TOY_VERSION = 11;

/** The toy files, by key (what test/skill_examples.json names), as file names in the folder. */
export const TOY_FILES: Readonly<Record<string, string>> = {
  genome: "genome.fa",
  "genome.gz": "genome.fa.gz",
  strain2: "strain2.fa",
  strain3: "strain3.fa",
  contigs: "contigs.fa",
  gff3: "genes.gff3",
  gtf: "genes.gtf",
  "genes.bed": "genes.bed",
  "targets.bed": "targets.bed",
  "chrom.sizes": "genome.txt",
  cds: "cds.fna",
  proteins: "proteins.faa",
  transcripts: "transcripts.fa",
  "transcripts.gz": "transcripts.fa.gz",
  "tx2gene": "tx2gene.tsv",
  reads_1: "reads_1.fq.gz",
  reads_2: "reads_2.fq.gz",
  "reads_1.fq": "reads_1.fq",
  "reads_2.fq": "reads_2.fq",
  interleaved: "interleaved.fq.gz",
  rna_1: "rna_1.fq.gz",
  rna_2: "rna_2.fq.gz",
  long: "long.fq.gz",
  "long.fq": "long.fq",
  "long.fa": "long.fa",
  adapters: "adapters.fa",
  dna_family: "dna_family.fa",
  dna_aln: "dna_aln.fa",
  protein_family: "protein_family.faa",
  protein_aln: "protein_aln.faa",
  amplicons: "amplicons.fa",
  cohort_vcf: "cohort.vcf",
  "cohort.vcf.gz": "cohort.vcf.gz",
  samples: "samples.txt",
  pheno: "pheno.txt",
  sam: "aln.sam",
  bam: "aln.bam",
  bam_name: "aln.name.bam",
  rna_bam: "rna.bam",
  long_bam: "long.bam",
  long_paf: "long_ava.paf.gz",
  vcf: "calls.vcf",
  "vcf.gz": "calls.vcf.gz",
  // Known answers (scripts/_toy_truth.ts; the values are in truth.json).
  sv_sample: "sv_sample.fa",
  sv_long: "sv_long.fq",
  sv_long_bam: "sv_long.bam",
  sv_1: "sv_1.fq",
  sv_2: "sv_2.fq",
  sv_bam: "sv.bam",
  repeats: "repeats.fa",
  norm_vcf: "norm.vcf",
  sra: "toy_run.sra",
  truth: "truth.json",
};

/** Index files that travel with a toy file (`aln.bam` → `aln.bam.bai`). */
export const TOY_COMPANIONS: Readonly<Record<string, string[]>> = {
  bam: [".bai"],
  rna_bam: [".bai"],
  long_bam: [".bai"],
  "vcf.gz": [".tbi"],
  "cohort.vcf.gz": [".tbi"],
  sv_long_bam: [".bai"],
  sv_bam: [".bai"],
};

/** The local .sra archive, made only where the SRA Toolkit is installed. */
const SRA = `if command -v latf-load >/dev/null && command -v kar >/dev/null; then
  latf-load -p ILLUMINA --quality PHRED_33 -o toy_run_db reads_1.fq reads_2.fq >/dev/null 2>&1
  kar --create toy_run.sra -d toy_run_db >/dev/null && rm -rf toy_run_db
fi`;

/** The folder `dir` holds a complete toy set when this marker exists. */
const MARKER = `.toy-v${TOY_VERSION}`;

/** Builds the toy set in `dir` unless it is there already; returns `dir`. */
export async function buildToyData(dir: string): Promise<string> {
  if (existsSync(join(dir, MARKER))) {
    // A set made before the SRA Toolkit was installed lacks only the archive: make it now.
    if (!existsSync(join(dir, TOY_FILES.sra))) {
      execFileSync("bash", ["-euo", "pipefail", "-c", SRA], { cwd: dir, stdio: "pipe" });
    }
    return dir;
  }
  const tmp = `${dir}.tmp${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  await writeSequences(tmp);
  const sh = (script: string) =>
    execFileSync("bash", ["-euo", "pipefail", "-c", script], { cwd: tmp, stdio: "pipe" });
  sh(`samtools faidx genome.fa
bwa index genome.fa 2>/dev/null
bwa mem -t 2 -R '@RG\\tID:sample\\tSM:sample\\tPL:ILLUMINA\\tLB:lib1' genome.fa reads_1.fq.gz reads_2.fq.gz 2>/dev/null > aln.sam
samtools sort -o aln.bam aln.sam 2>/dev/null && samtools index aln.bam
samtools sort -n -o aln.name.bam aln.sam 2>/dev/null
bwa mem -t 2 -R '@RG\\tID:rna\\tSM:rna\\tPL:ILLUMINA' genome.fa rna_1.fq.gz rna_2.fq.gz 2>/dev/null | samtools sort -o rna.bam - 2>/dev/null
samtools index rna.bam
minimap2 -ax map-ont -R '@RG\\tID:ont\\tSM:ont\\tPL:ONT' genome.fa long.fq.gz 2>/dev/null | samtools sort -o long.bam - 2>/dev/null
samtools index long.bam
bwa mem -t 2 -R '@RG\\tID:sv\\tSM:sv\\tPL:ILLUMINA\\tLB:lib1' genome.fa sv_1.fq sv_2.fq 2>/dev/null | samtools sort -o sv.bam - 2>/dev/null
samtools index sv.bam
minimap2 -ax map-ont -R '@RG\\tID:sv_ont\\tSM:sv\\tPL:ONT' genome.fa sv_long.fq 2>/dev/null | samtools sort -o sv_long.bam - 2>/dev/null
samtools index sv_long.bam
${SRA}
minimap2 -x ava-ont long.fq.gz long.fq.gz 2>/dev/null | gzip > long_ava.paf.gz
bcftools mpileup -Ou -f genome.fa aln.bam 2>/dev/null | bcftools call -mv -Oz -o calls.vcf.gz 2>/dev/null
tabix -p vcf calls.vcf.gz && bcftools view -Ov -o calls.vcf calls.vcf.gz
bgzip -c cohort.vcf > cohort.vcf.gz && tabix -p vcf cohort.vcf.gz
rm -f genome.fa.amb genome.fa.ann genome.fa.bwt genome.fa.pac genome.fa.sa`);
  await writeFile(join(tmp, MARKER), "");
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
  return dir;
}

async function writeSequences(dir: string): Promise<void> {
  const rand = rng(26);
  const put = (name: string, text: string) => writeFile(join(dir, name), text);
  const gz = (name: string, text: string) => writeFile(join(dir, name), gzipSync(text));
  const g = makeGenome(rand, [["chr1", 60_000], ["chr2", 40_000]]);
  await put("genome.fa", fasta(g.chroms));
  await gz("genome.fa.gz", fasta(g.chroms));
  await put("genome.txt", g.chroms.map(([n, s]) => `${n}\t${s.length}\n`).join(""));
  const sample = g.chroms.map(([n, s]) => [n, mutate(rand, s, 400)[0]] as [string, string]);
  const strain = (every: number) =>
    g.chroms.map(([n, s]) => [n, mutate(rand, s, every)[0]] as [string, string]);
  const strain2 = strain(100);
  const strain3 = strain(40);
  await put("strain2.fa", fasta(strain2));
  await put("strain3.fa", fasta(strain3));
  const contigs: [string, string][] = [];
  for (const [, s] of sample) {
    for (let i = 0; i < s.length; i += 12_000) {
      contigs.push([`contig_${contigs.length + 1}`, s.slice(i, i + 12_000)]);
    }
  }
  await put("contigs.fa", fasta(contigs));
  // Annotation: a gene, an mRNA/transcript, one exon and a CDS per ORF.
  const gff = ["##gff-version 3"];
  const gtf: string[] = [];
  for (const x of g.genes) {
    const at = `${x.chrom}\ttoy\t%s\t${x.start}\t${x.end}\t.\t${x.strand}\t%s\t`;
    const f = (type: string, phase = ".") => at.replace("%s", type).replace("%s", phase);
    gff.push(`${f("gene")}ID=${x.id};Name=${x.id.toUpperCase()};gene_biotype=protein_coding`);
    gff.push(`${f("mRNA")}ID=${x.id}.t1;Parent=${x.id}`);
    gff.push(`${f("exon")}ID=${x.id}.t1.exon1;Parent=${x.id}.t1`);
    gff.push(`${f("CDS", "0")}ID=${x.id}.t1.cds;Parent=${x.id}.t1`);
    const ids =
      `gene_id "${x.id}"; transcript_id "${x.id}.t1"; gene_name "${x.id.toUpperCase()}"; gene_biotype "protein_coding";`;
    gtf.push(
      `${
        f("gene")
      }gene_id "${x.id}"; gene_name "${x.id.toUpperCase()}"; gene_biotype "protein_coding";`,
    );
    gtf.push(`${f("transcript")}${ids}`);
    gtf.push(`${f("exon")}${ids} exon_number "1";`);
    gtf.push(`${f("CDS", "0")}${ids} exon_number "1";`);
  }
  await put("genes.gff3", gff.join("\n") + "\n");
  await put("genes.gtf", gtf.join("\n") + "\n");
  await put(
    "genes.bed",
    g.genes.map((x) => `${x.chrom}\t${x.start - 1}\t${x.end}\t${x.id}\t0\t${x.strand}\n`).join(""),
  );
  await put(
    "targets.bed",
    g.genes.slice(0, 20).map((x) => `${x.chrom}\t${x.start - 1}\t${x.end}\n`).join(""),
  );
  await put("cds.fna", fasta(g.genes.map((x) => [x.id, x.cds])));
  await put("proteins.faa", fasta(g.genes.map((x) => [x.id, translate(x.cds).replace(/\*$/, "")])));
  const tx: [string, string][] = g.genes.map((x) => [`${x.id}.t1`, x.cds]);
  await put("transcripts.fa", fasta(tx));
  await gz("transcripts.fa.gz", fasta(tx));
  await put("tx2gene.tsv", g.genes.map((x) => `${x.id}.t1\t${x.id}\n`).join(""));
  // Reads: DNA from the sample genome (about 10x), reverse-stranded RNA from the transcripts.
  const [r1, r2] = pairedReads(rand, sample.map(([, s]) => s), 5_000, {
    len: 100,
    insert: 300,
    prefix: "dna",
  });
  await gz("reads_1.fq.gz", fastq(r1));
  await gz("reads_2.fq.gz", fastq(r2));
  await put("reads_1.fq", fastq(r1));
  await put("reads_2.fq", fastq(r2));
  await gz("interleaved.fq.gz", fastq(r1.flatMap((r, i) => [r, r2[i]])));
  const weights = tx.map((_, i) => 1 + (i % 7) * (i % 5));
  const [n1, n2] = pairedReads(rand, tx.map(([, s]) => s), 5_000, {
    len: 75,
    insert: 200,
    prefix: "rna",
    weights,
    reverseStranded: true,
  });
  await gz("rna_1.fq.gz", fastq(n1));
  await gz("rna_2.fq.gz", fastq(n2));
  const long = longReads(rand, sample, 120);
  await gz("long.fq.gz", fastq(long));
  await put("long.fq", fastq(long));
  await put("long.fa", fasta(long.map(([n, s]) => [n.split(" ")[0], s])));
  await put(
    "adapters.fa",
    ">TruSeq_Read1\nAGATCGGAAGAGCACACGTCTGAACTCCAGTCAC\n>TruSeq_Read2\nAGATCGGAAGAGCGTCGTGTAGGGAAAGAGTGT\n>Nextera\nCTGTCTCTTATACACATCT\n",
  );
  // Families for alignment and trees: substitutions only, so the unaligned set is also aligned.
  const root = randomDna(rand, 800);
  const family = Array.from(
    { length: 12 },
    (_, i) => [`taxon${i + 1}`, mutate(rand, root, 10 + i * 2)[0]] as [string, string],
  );
  await put("dna_family.fa", fasta(family));
  await put("dna_aln.fa", fasta(family));
  const prot = family.map(([n, s]) => [n, translate(s).replaceAll("*", "W")] as [string, string]);
  await put("protein_family.faa", fasta(prot));
  await put("protein_aln.faa", fasta(prot));
  const templates = Array.from({ length: 8 }, () => randomDna(rand, 250));
  const used = new Set<number>();
  const amplicons = Array.from({ length: 300 }, (_, i) => {
    const k = Math.min(7, Math.floor(-Math.log(1 - rand() * 0.999) * 2));
    used.add(k);
    const t = templates[k];
    return [`amp${i + 1};size=1`, rand() < 0.7 ? t : mutate(rand, t, 120)[0]] as [string, string];
  });
  await put("amplicons.fa", fasta(amplicons));
  await writeCohort(rand, g.chroms, put);
  await writeTruthData(dir, g.chroms, sample, { r1, r2 }, {
    strain2,
    strain3,
    family,
    ampliconTemplates: used.size,
  });
}

/** A 60-sample VCF of 300 biallelic SNPs with ids, plus sample and phenotype lists. */
async function writeCohort(
  rand: () => number,
  chroms: [string, string][],
  put: (name: string, text: string) => Promise<void>,
): Promise<void> {
  const samples = Array.from({ length: 60 }, (_, i) => `S${String(i + 1).padStart(2, "0")}`);
  const lines = [
    "##fileformat=VCFv4.2",
    ...chroms.map(([n, s]) => `##contig=<ID=${n},length=${s.length}>`),
    '##INFO=<ID=AF,Number=A,Type=Float,Description="Allele frequency">',
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Read depth">',
    ["#CHROM", "POS", "ID", "REF", "ALT", "QUAL", "FILTER", "INFO", "FORMAT", ...samples].join(
      "\t",
    ),
  ];
  let id = 1;
  for (const [n, s] of chroms) {
    for (let pos = 137; pos < s.length && id <= 300; pos += 200 + Math.floor(rand() * 200)) {
      const ref = s[pos - 1];
      const alt = "ACGT".replace(ref, "")[Math.floor(rand() * 3)];
      const af = 0.05 + rand() * 0.5;
      const gts = samples.map(() =>
        `${rand() < af ? 1 : 0}|${rand() < af ? 1 : 0}:${10 + Math.floor(rand() * 30)}`
      );
      lines.push(
        [
          n,
          pos,
          `rs${id++}`,
          ref,
          alt,
          50 + Math.floor(rand() * 50),
          "PASS",
          `AF=${af.toFixed(3)}`,
          "GT:DP",
          ...gts,
        ].join("\t"),
      );
    }
  }
  await put("cohort.vcf", lines.join("\n") + "\n");
  await put("samples.txt", samples.slice(0, 10).join("\n") + "\n");
  await put(
    "pheno.txt",
    "#FID\tIID\tPHENO\n" + samples.map((s, i) => `${s}\t${s}\t${i % 2 + 1}`).join("\n") + "\n",
  );
}
