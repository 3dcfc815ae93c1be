// Private: byte framing for the stdio transport. Newline-delimited messages on
// stdout with a per-line cap, and a bounded tail of stderr lines for errors.

/** Splits a byte stream into lines (without `\n` or `\r\n`), refusing any longer than `maxBytes`. */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #decoder = new TextDecoder();
  #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Feed bytes; returns the complete lines, or `undefined` when a line exceeds the cap. */
  push(chunk: Uint8Array): string[] | undefined {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, nl);
      if (this.#size + part.length > this.#maxBytes) return undefined;
      lines.push(this.#take(part));
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      this.#size += rest.length;
      if (this.#size > this.#maxBytes) return undefined;
      this.#chunks.push(rest);
    }
    return lines;
  }

  #take(last: Uint8Array): string {
    let bytes = last;
    if (this.#chunks.length > 0) {
      bytes = new Uint8Array(this.#size + last.length);
      let at = 0;
      for (const c of this.#chunks) {
        bytes.set(c, at);
        at += c.length;
      }
      bytes.set(last, at);
      this.#chunks = [];
      this.#size = 0;
    }
    const text = this.#decoder.decode(bytes);
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  }
}

/**
 * Keeps the last `limit` lines written to a stream (each clipped to 1,000 characters). Each line
 * goes through `scrub` whole, before any clipping, so a cut never keeps part of a secret.
 */
export class LineTail {
  readonly #limit: number;
  readonly #scrub: (line: string) => string;
  readonly #onLine?: (line: string) => void;
  readonly #decoder = new TextDecoder();
  #lines: string[] = [];
  #partial = "";

  /** `onLine` sees each complete line as kept (scrubbed and clipped). */
  constructor(limit: number, scrub: (line: string) => string, onLine?: (line: string) => void) {
    this.#limit = limit;
    this.#scrub = scrub;
    this.#onLine = onLine;
  }

  push(chunk: Uint8Array): void {
    const text = this.#partial + this.#decoder.decode(chunk, { stream: true });
    const parts = text.split("\n");
    const rest = parts.pop()!;
    // An unterminated line is kept to its last 4 KiB, scrubbed before the cut.
    this.#partial = rest.length > 4096 ? this.#scrub(rest).slice(-4096) : rest;
    for (const line of parts) this.#add(line);
  }

  #add(line: string): void {
    const clean = this.#scrub(line.endsWith("\r") ? line.slice(0, -1) : line);
    const kept = clean.length > 1000 ? `${clean.slice(0, 1000)}…` : clean;
    this.#lines.push(kept);
    this.#onLine?.(kept);
    if (this.#lines.length > this.#limit) this.#lines.splice(0, this.#lines.length - this.#limit);
  }

  /** The kept lines, oldest first, including an unterminated last line, all scrubbed. */
  lines(): string[] {
    const out = [...this.#lines];
    if (this.#partial !== "") out.push(this.#scrub(this.#partial).slice(0, 1000));
    return out.slice(-this.#limit);
  }
}
