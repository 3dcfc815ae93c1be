// Private: entry vectors of the semantic stage, kept per embedded text. A vector's key is the
// digest of the model's name and the text embedded (which follows from the entry: a changed entry
// is another text, so another key), held in memory and, when a storage is given, saved there as
// base64 of its float32s, so a new process embeds only what changed. A storage that fails only
// costs the embedding.

import type { Storage } from "../../storage/types.ts";
import { encoder, sha256Digest } from "../../_digest.ts";
import type { CatalogEntry } from "../model/types.ts";
import type { Embedder } from "../model/semantic_types.ts";

const PREFIX = "embedding/";
/** Most characters of an entry embedded. */
const MAX_TEXT = 2_000;

/** What is embedded for an entry: its name, title, description, tags and first keywords. */
export function entryText(e: CatalogEntry): string {
  const head = e.title && e.title !== e.name ? `${e.name}: ${e.title}` : e.name;
  const tags = e.tags.length > 0 ? `\n${e.tags.join(", ")}` : "";
  const more = e.keywords.length > 0 ? `\n${e.keywords.slice(0, 8).join("; ")}` : "";
  return `${head}\n${e.description}${tags}${more}`.slice(0, MAX_TEXT);
}

function encode(v: readonly number[]): string {
  const bytes = new Uint8Array(new Float32Array(v).buffer);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

function decode(text: string): Float32Array | undefined {
  try {
    const s = atob(text);
    if (s.length === 0 || s.length % 4 !== 0) return undefined;
    const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0));
    const v = new Float32Array(bytes.buffer);
    return v.every(Number.isFinite) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Vectors of one model, in memory and (optionally) in a storage. */
export class VectorCache {
  #memory = new Map<string, Float32Array>();
  #model: string;
  #storage: Storage | undefined;
  /** How many texts this cache sent to the embedder (a test seam). */
  embedded = 0;

  constructor(model: string, storage: Storage | undefined) {
    this.#model = model;
    this.#storage = storage;
  }

  async #key(text: string): Promise<string> {
    const digest = await sha256Digest(encoder.encode(`${this.#model}\n${text}`));
    return PREFIX + digest.slice(7);
  }

  /** The vectors of `texts`, embedding (in batches of `batch`) only those not kept. */
  async vectors(
    texts: readonly string[],
    embed: Embedder,
    batch: number,
    signal: AbortSignal,
  ): Promise<Float32Array[]> {
    const keys = await Promise.all(texts.map((t) => this.#key(t)));
    const out: Array<Float32Array | undefined> = keys.map((k) => this.#memory.get(k));
    const storage = this.#storage;
    if (storage) {
      await Promise.all(keys.map(async (k, i) => {
        if (out[i]) return;
        const saved = await storage.get(k).catch(() => undefined);
        const v = saved === undefined ? undefined : decode(saved);
        if (v) this.#memory.set(k, out[i] = v);
      }));
    }
    const missing = keys.map((_, i) => i).filter((i) => !out[i]);
    for (let at = 0; at < missing.length; at += batch) {
      signal.throwIfAborted();
      const part = missing.slice(at, at + batch);
      const got = await embed(part.map((i) => texts[i]), { signal });
      if (got.length !== part.length) {
        throw new TypeError(`the embedder returned ${got.length} vectors for ${part.length} texts`);
      }
      this.embedded += part.length;
      for (const [j, i] of part.entries()) {
        const v = Float32Array.from(got[j]);
        this.#memory.set(keys[i], out[i] = v);
        if (storage) await storage.set(keys[i], encode(got[j])).catch(() => {});
      }
    }
    const length = out[0]?.length;
    if (out.some((v) => v!.length !== length)) {
      throw new TypeError("the embedder's vectors are not all of one length");
    }
    return out as Float32Array[];
  }
}

/** Cosine similarity (0 when either vector is all zeros). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
