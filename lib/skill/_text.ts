// Private: text helpers shared by the parsers (web-standard globals only). The digest and the
// encoder are shared ground (lib/_digest.ts).

/** Drops a leading BOM and turns CRLF and lone CR line endings into LF. */
export function normalizeNewlines(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, "\n");
}

/** Offsets at which each line of `text` starts. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 0-based index of the line holding `offset`, given {@linkcode lineStarts}. */
export function lineIndexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Whether a line holds nothing but spaces and tabs. */
export function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line);
}
