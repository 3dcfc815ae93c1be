// Private: a process-wide cache of at most `max` entries (a Map that forgets its oldest, or all).

/**
 * How a full cache makes room for a new key: `"oldest"` forgets the key set longest ago,
 * `"used"` the key read or set longest ago (a hit refreshes it), `"all"` forgets everything.
 */
export type Eviction = "oldest" | "used" | "all";

/** A Map of at most `max` entries; a new key in a full cache first makes room by `eviction`. */
export class BoundedCache<K, V> {
  readonly #map = new Map<K, V>();
  readonly #max: number;
  readonly #eviction: Eviction;

  constructor(max: number, eviction: Eviction = "oldest") {
    this.#max = max;
    this.#eviction = eviction;
  }

  /** Entries held. */
  get size(): number {
    return this.#map.size;
  }

  /** The value of `key`; with `"used"` eviction, a hit becomes the newest key. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (this.#eviction === "used" && this.#map.has(key)) {
      this.#map.delete(key);
      this.#map.set(key, value as V);
    }
    return value;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Sets `key`; a key already held keeps its place, except with `"used"` eviction. */
  set(key: K, value: V): this {
    if (this.#map.has(key)) {
      if (this.#eviction === "used") this.#map.delete(key);
    } else if (this.#map.size >= this.#max) {
      if (this.#eviction === "all") this.#map.clear();
      else this.#map.delete(this.#map.keys().next().value as K);
    }
    this.#map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}
