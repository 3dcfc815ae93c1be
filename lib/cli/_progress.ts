// Private: `call`'s progress. On a terminal one line is redrawn in place (`clearLine()` markers,
// which only the terminal writer turns into `CR ESC [K`); elsewhere it degrades to plain lines,
// at most one a second (every update with `--progress`). A form or question on the terminal
// first takes the line away (`hold`), and it comes back with the next update.

import { clearLine } from "./_terminal.ts";

/** Where progress goes: raw stderr text (a terminal's line) and whole stderr lines. */
interface Output {
  io: { stderr(text: string): void };
  err(line: string): void;
}

/** How progress is shown: `line` (a terminal), `lines` (every update), `some` (one a second). */
export type ProgressMode = "line" | "lines" | "some";

/** The progress display of one call. */
export class ProgressLine {
  readonly #ctx: Output;
  readonly #mode: ProgressMode;
  #shown = false;
  #last = 0;
  #lastText = "";

  constructor(ctx: Output, mode: ProgressMode) {
    this.#ctx = ctx;
    this.#mode = mode;
  }

  /** Show `text` as the current state. */
  update(text: string): void {
    if (this.#mode === "line") {
      this.#shown = true;
      this.#ctx.io.stderr(`${clearLine()}${text}`);
      return;
    }
    if (this.#mode === "some") {
      const now = Date.now();
      if (text === this.#lastText || now - this.#last < 1_000) return;
      this.#last = now;
    }
    this.#lastText = text;
    this.#ctx.err(text);
  }

  /** Take the line away (before other output, and at the end). */
  clear(): void {
    if (!this.#shown) return;
    this.#shown = false;
    this.#ctx.io.stderr(clearLine());
  }

  /** Run `fn` (a question on the terminal) with the line taken away. */
  async hold<T>(fn: () => Promise<T>): Promise<T> {
    this.clear();
    return await fn();
  }
}
