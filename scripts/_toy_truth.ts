// Private: toy data with a known answer, for the claims of the example-run check
// (test/skill_examples.json `claims`): a sample genome with planted structural variants (and the
// SNPs of the toy sample), a sequence with a planted repeat, a VCF with planted representation
// problems, and the known values (positions, counts, depths) written to truth.json, which claims
// name as `{truth.key}`. Deterministic: its own seeded generator, so the older toy files stay the
// same byte for byte.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fasta, fastq, longReads, pairedReads, randomDna, revcomp, rng } from "./_toy_sequences.ts";

/** The planted answers, by name; claims refer to them as `{truth.name}`. */
export type Truth = Record<string, number | string>;

/** Where the planted SVs sit on chr1 (1-based, inclusive), and the repeat on `repeat1`. */
export const PLANTED = {
  /** A 2 kb deletion: chr1:20001-22000 is missing from the SV sample. */
  del: { start: 20_001, end: 22_000 },
  /** A 2 kb inversion: chr1:35001-37000 is reversed and complemented. */
  inv: { start: 35_001, end: 37_000 },
  /** A 600 bp insertion of random sequence after chr1:50000. */
  ins: { after: 50_000, length: 600 },
  /** A 3 kb repeat: repeat1:10001-13000 is copied to repeat1:30001-33000 (50 kb sequence). */
  repeat: { first: 10_001, second: 30_001, length: 3_000, size: 50_000 },
} as const;

/**
 * Writes the known-answer toy files into `dir` (alignments are made by the caller with samtools,
 * bwa and minimap2) and returns the truth. `chroms` is the toy reference, `sample` the toy sample
 * (the reference with SNPs only), `reads` the toy DNA reads (for k-mer totals), `more` the related
 * strains (for ANI), the DNA family (for alignment columns) and the amplicons' template count.
 */
export async function writeTruthData(
  dir: string,
  chroms: [string, string][],
  sample: [string, string][],
  reads: { r1: [string, string, string][]; r2: [string, string, string][] },
  more: {
    strain2: [string, string][];
    strain3: [string, string][];
    family: [string, string][];
    /** How many of the 8 amplicon templates the 300 amplicons (amplicons.fa) come from. */
    ampliconTemplates: number;
  },
): Promise<Truth> {
  const rand = rng(45);
  const put = (name: string, text: string) => writeFile(join(dir, name), text);
  const truth: Truth = {};

  // SNPs of the toy sample (contigs.fa is the sample cut into 12 kb pieces).
  let snps = 0;
  for (let c = 0; c < chroms.length; c++) {
    for (let i = 0; i < chroms[c][1].length; i++) if (chroms[c][1][i] !== sample[c][1][i]) snps++;
  }
  truth.sample_snps = snps;
  truth.genome_length = chroms.reduce((a, [, s]) => a + s.length, 0);

  // The SV sample: the toy sample with a deletion, an inversion and an insertion on chr1.
  const [name1, s1] = sample[0];
  const { del, inv, ins } = PLANTED;
  const inserted = randomDna(rand, ins.length);
  const sv1 = s1.slice(0, del.start - 1) + s1.slice(del.end, inv.start - 1) +
    revcomp(s1.slice(inv.start - 1, inv.end)) + s1.slice(inv.end, ins.after) + inserted +
    s1.slice(ins.after);
  const svSample: [string, string][] = [[name1, sv1], ...sample.slice(1)];
  await put("sv_sample.fa", fasta(svSample));
  Object.assign(truth, {
    del_start: del.start,
    del_end: del.end,
    del_length: del.end - del.start + 1,
    inv_start: inv.start,
    inv_end: inv.end,
    ins_after: ins.after,
    ins_length: ins.length,
    planted_svs: 3,
  });
  // Long reads of the SV sample, about 25x (2-8 kb, 3 % errors), and short pairs, about 30x.
  const long = longReads(rand, svSample, 500);
  await put("sv_long.fq", fastq(long));
  const depth = 30;
  const pairs = Math.round(truth.genome_length * depth / 200);
  const [a, b] = pairedReads(rand, svSample.map(([, s]) => s), pairs, {
    len: 100,
    insert: 350,
    prefix: "sv",
  });
  await put("sv_1.fq", fastq(a));
  await put("sv_2.fq", fastq(b));
  truth.sv_short_depth = depth;

  // A 50 kb sequence with a 3 kb segment present twice.
  const { repeat } = PLANTED;
  let r = randomDna(rand, repeat.size);
  const seg = r.slice(repeat.first - 1, repeat.first - 1 + repeat.length);
  r = r.slice(0, repeat.second - 1) + seg + r.slice(repeat.second - 1 + repeat.length);
  await put("repeats.fa", fasta([["repeat1", r]]));
  Object.assign(truth, {
    repeat_first: repeat.first,
    repeat_first_end: repeat.first + repeat.length - 1,
    repeat_second: repeat.second,
    repeat_second_end: repeat.second + repeat.length - 1,
    repeat_length: repeat.length,
  });

  // A VCF on the toy reference with a right-shifted 1 bp deletion in a homopolymer, a multiallelic
  // het-alt site (1/2) and a block substitution of two changed bases in four.
  const ref = chroms[0][1];
  const at = (from: number, ok: (i: number) => boolean) => {
    let i = from;
    while (!ok(i)) i++;
    return i;
  };
  // 0-based i, i+1 the same base, flanked by other bases: "xAAy".
  const h = at(
    5_000,
    (i) => ref[i] === ref[i + 1] && ref[i - 1] !== ref[i] && ref[i + 2] !== ref[i],
  );
  const m = 8_000;
  const [alt1, alt2] = "ACGT".replace(ref[m], "").slice(0, 2);
  const k = 11_000;
  const block = ref.slice(k, k + 4);
  const flip = (c: string) => "ACGT".replace(c, "")[0];
  const blockAlt = flip(block[0]) + block[1] + flip(block[2]) + block[3];
  const vcf = [
    "##fileformat=VCFv4.2",
    ...chroms.map(([n, s]) => `##contig=<ID=${n},length=${s.length}>`),
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=AD,Number=R,Type=Integer,Description="Allelic depths">',
    "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1",
    // Right-shifted: the deletion of one base of the run, written at its second base.
    `chr1\t${h + 1}\tshifted_del\t${ref[h]}${ref[h + 1]}\t${ref[h]}\t50\tPASS\t.\tGT:AD\t0/1:5,5`,
    `chr1\t${m + 1}\thet_alt\t${ref[m]}\t${alt1},${alt2}\t50\tPASS\t.\tGT:AD\t1/2:0,5,5`,
    `chr1\t${k + 1}\tblock_sub\t${block}\t${blockAlt}\t50\tPASS\t.\tGT:AD\t0/1:5,5`,
  ].join("\n") + "\n";
  await put("norm.vcf", vcf);
  Object.assign(truth, {
    shifted_del_pos: h + 1,
    shifted_del_left_pos: h,
    het_alt_pos: m + 1,
    block_sub_pos: k + 1,
    block_sub_snp1: k + 1,
    block_sub_snp2: k + 3,
  });

  // Canonical 21-mers in the toy DNA reads (reads_1.fq and reads_2.fq; reads_1.fq alone).
  const count = (seqs: string[], prefix: string) => {
    const kmers = new Map<string, number>();
    let total = 0;
    for (const s of seqs) {
      for (let i = 0; i + 21 <= s.length; i++) {
        const x = s.slice(i, i + 21);
        if (x.includes("N")) continue;
        const rc = revcomp(x);
        const c = x < rc ? x : rc;
        kmers.set(c, (kmers.get(c) ?? 0) + 1);
        total++;
      }
    }
    truth[`${prefix}_total`] = total;
    truth[`${prefix}_distinct`] = kmers.size;
    truth[`${prefix}_unique`] = [...kmers.values()].filter((n) => n === 1).length;
    truth[`${prefix}_repeated`] = kmers.size - (truth[`${prefix}_unique`] as number);
  };
  count([...reads.r1, ...reads.r2].map(([, s]) => s), "kmer21");
  count(reads.r1.map(([, s]) => s), "r1_kmer21");

  // Identity of the related strains to the reference (substitutions only), in percent.
  for (const [name, strain] of [["strain2", more.strain2], ["strain3", more.strain3]] as const) {
    let diff = 0;
    for (let c = 0; c < chroms.length; c++) {
      for (let i = 0; i < chroms[c][1].length; i++) if (chroms[c][1][i] !== strain[c][1][i]) diff++;
    }
    truth[`${name}_identity`] = Number((100 * (1 - diff / truth.genome_length)).toFixed(2));
  }
  // Columns of the DNA family alignment (dna_aln.fa): variable, and constant A, C, G, T.
  const cols = more.family[0][1].length;
  let variable = 0;
  const constant: Record<string, number> = { A: 0, C: 0, G: 0, T: 0 };
  for (let i = 0; i < cols; i++) {
    const bases = new Set(more.family.map(([, s]) => s[i]));
    if (bases.size > 1) variable++;
    else constant[[...bases][0]]++;
  }
  // amplicons.fa: 300 amplicons of 250 bp, copies of few templates, 30 % with 0.8 % substitutions.
  truth.amplicons = 300;
  truth.amplicon_templates = more.ampliconTemplates;
  truth.aln_columns = cols;
  truth.aln_variable = variable;
  truth.aln_constant = `${constant.A},${constant.C},${constant.G},${constant.T}`;
  // The toy DNA reads' depth on the reference: pairs × 2 × 100 bases / genome length.
  truth.dna_pairs = reads.r1.length;
  truth.dna_reads = 2 * reads.r1.length;
  // The toy cohort (cohort.vcf, scripts/_toy_data.ts): 60 samples, 300 SNPs.
  truth.cohort_samples = 60;
  truth.cohort_snps = 300;
  truth.dna_depth = (reads.r1.length * 2 * 100) / truth.genome_length;
  await put("truth.json", JSON.stringify(truth, null, 1) + "\n");
  return truth;
}
