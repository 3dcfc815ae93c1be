// Private: small random sequence data for the example-run check (scripts/skill_examples.ts).
// Deterministic (a seeded generator), in memory, no tools needed: a two-chromosome genome built of
// open reading frames and spacers, its genes, a mutated sample genome, a related strain, reads.

/** A seeded pseudo-random generator (mulberry32): the same data on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASES = "ACGT";
const STOPS = new Set(["TAA", "TAG", "TGA"]);
const CODE = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG";

/** `n` random bases. */
export function randomDna(rand: () => number, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += BASES[Math.floor(rand() * 4)];
  return s;
}

/** The reverse complement of `s`. */
export function revcomp(s: string): string {
  const c: Record<string, string> = { A: "T", C: "G", G: "C", T: "A", N: "N" };
  let r = "";
  for (let i = s.length - 1; i >= 0; i--) r += c[s[i]] ?? "N";
  return r;
}

/** The protein of a coding sequence (standard code, `*` for stops). */
export function translate(cds: string): string {
  const idx: Record<string, number> = { T: 0, C: 1, A: 2, G: 3 };
  let p = "";
  for (let i = 0; i + 3 <= cds.length; i += 3) {
    p += CODE[idx[cds[i]] * 16 + idx[cds[i + 1]] * 4 + idx[cds[i + 2]]];
  }
  return p;
}

/** An open reading frame of `codons` codons: ATG, random sense codons, a stop. */
function orf(rand: () => number, codons: number): string {
  let s = "ATG";
  while (s.length < codons * 3) {
    const c = randomDna(rand, 3);
    if (!STOPS.has(c)) s += c;
  }
  return s + "TAA";
}

/** A gene placed on a chromosome (1-based inclusive coordinates, as in GFF). */
export interface Gene {
  id: string;
  chrom: string;
  start: number;
  end: number;
  strand: "+" | "-";
  /** The coding sequence on the gene's own strand. */
  cds: string;
}

/** The reference: chromosomes by name and the genes on them. */
export interface Genome {
  chroms: [string, string][];
  genes: Gene[];
}

/** Chromosomes of spacers and ORFs on both strands (a prokaryote-like layout prodigal can read). */
export function makeGenome(rand: () => number, sizes: [string, number][]): Genome {
  const chroms: [string, string][] = [];
  const genes: Gene[] = [];
  for (const [chrom, size] of sizes) {
    let seq = "";
    while (seq.length < size - 2000) {
      seq += randomDna(rand, 150 + Math.floor(rand() * 250));
      const cds = orf(rand, 200 + Math.floor(rand() * 300));
      const strand = rand() < 0.5 ? "+" : "-";
      const id = `gene${String(genes.length + 1).padStart(3, "0")}`;
      genes.push({ id, chrom, start: seq.length + 1, end: seq.length + cds.length, strand, cds });
      seq += strand === "+" ? cds : revcomp(cds);
    }
    seq += randomDna(rand, size - seq.length);
    chroms.push([chrom, seq]);
  }
  return { chroms, genes };
}

/** A copy of `seq` with a substitution about every `every` bases; returns the positions (0-based). */
export function mutate(rand: () => number, seq: string, every: number): [string, number[]] {
  const out = seq.split("");
  const sites: number[] = [];
  for (
    let i = 50 + Math.floor(rand() * every);
    i < out.length - 50;
    i += every / 2 + rand() * every
  ) {
    const p = Math.floor(i);
    const others = BASES.replace(out[p], "");
    out[p] = others[Math.floor(rand() * 3)];
    sites.push(p);
  }
  return [out.join(""), sites];
}

/** FASTA text, 60 bases a line. */
export function fasta(records: [string, string][]): string {
  return records.map(([n, s]) => `>${n}\n${s.replace(/(.{60})/g, "$1\n").replace(/\n$/, "")}\n`)
    .join("");
}

/** One read with a quality string. */
export type Read = [name: string, seq: string, qual: string];

/** FASTQ text. */
export function fastq(reads: Read[]): string {
  return reads.map(([n, s, q]) => `@${n}\n${s}\n+\n${q}\n`).join("");
}

function noisy(rand: () => number, s: string, rate: number): [string, string] {
  let seq = "";
  let qual = "";
  for (let i = 0; i < s.length; i++) {
    const err = rand() < rate;
    seq += err ? BASES[Math.floor(rand() * 4)] : s[i];
    qual += err ? "+" : (i > s.length - 10 ? "5" : "I");
  }
  return [seq, qual];
}

/**
 * Paired reads of `len` bases from fragments of about `insert` bases of `sources` (weighted by
 * `weights`, default equal), R1 forward and R2 reverse; `reverseStranded` swaps them (dUTP RNA-seq).
 * An adapter follows any fragment shorter than the read.
 */
export function pairedReads(
  rand: () => number,
  sources: string[],
  pairs: number,
  opts: {
    len: number;
    insert: number;
    prefix: string;
    weights?: number[];
    reverseStranded?: boolean;
  },
): [Read[], Read[]] {
  const adapter = "AGATCGGAAGAGCACACGTCTGAACTCCAGTCAC";
  const weights = opts.weights ?? sources.map(() => 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const r1: Read[] = [];
  const r2: Read[] = [];
  for (let i = 0; i < pairs; i++) {
    let pick = rand() * total;
    let k = 0;
    while (pick > weights[k] && k < weights.length - 1) pick -= weights[k++];
    const src = sources[k];
    const frag = Math.min(src.length, Math.max(60, Math.round(opts.insert + (rand() - 0.5) * 80)));
    const start = Math.floor(rand() * (src.length - frag + 1));
    let f = src.slice(start, start + frag);
    if (opts.reverseStranded) f = revcomp(f);
    const pad = (s: string) => (s + adapter + randomDna(rand, opts.len)).slice(0, opts.len);
    const [s1, q1] = noisy(rand, pad(f), 0.003);
    const [s2, q2] = noisy(rand, pad(revcomp(f)), 0.005);
    r1.push([`${opts.prefix}${i + 1}/1`, s1, q1]);
    r2.push([`${opts.prefix}${i + 1}/2`, s2, q2]);
  }
  return [r1, r2];
}

/** Long reads (2–8 kb, about 3 % errors) from `chroms`, on both strands. */
export function longReads(rand: () => number, chroms: [string, string][], n: number): Read[] {
  const reads: Read[] = [];
  for (let i = 0; i < n; i++) {
    const [, seq] = chroms[Math.floor(rand() * chroms.length)];
    const len = 2000 + Math.floor(rand() * 6000);
    const start = Math.floor(rand() * (seq.length - len));
    let s = seq.slice(start, start + len);
    if (rand() < 0.5) s = revcomp(s);
    let out = "";
    for (const b of s) {
      const r = rand();
      if (r < 0.01) continue; // deletion
      if (r < 0.02) out += BASES[Math.floor(rand() * 4)]; // insertion
      out += r < 0.03 ? BASES[Math.floor(rand() * 4)] : b;
    }
    const qual = Array.from(
      { length: out.length },
      () => String.fromCharCode(33 + 10 + Math.floor(rand() * 15)),
    )
      .join("");
    reads.push([`read${i + 1} runid=toy ch=1`, out, qual]);
  }
  return reads;
}
