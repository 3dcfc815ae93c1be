// Private: a readable line diff of two definitions, for changed entries held by the approvals.

/** Most lines a diff shows. */
const MAX_LINES = 80;

/** A unified-style diff (`-` removed, `+` added, two lines of context) of `before` and `after`. */
export function lineDiff(before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  if (a.length * b.length > 4_000_000) return `- (${a.length} lines)\n+ (${b.length} lines)`;
  // Longest common subsequence table, from the ends.
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const rows: Array<[" " | "-" | "+", string]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) rows.push([" ", a[i++]]), j++;
    else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      rows.push(["-", a[i++]]);
    } else rows.push(["+", b[j++]]);
  }
  const near = (k: number) => rows.slice(Math.max(0, k - 2), k + 3).some(([mark]) => mark !== " ");
  const out: string[] = [];
  let skipped = false;
  rows.forEach(([mark, line], k) => {
    if (mark !== " " || near(k)) {
      if (skipped) out.push("  …");
      skipped = false;
      out.push(`${mark} ${line}`);
    } else skipped = true;
  });
  const shown = out.slice(0, MAX_LINES);
  if (out.length > MAX_LINES) shown.push(`  … ${out.length - MAX_LINES} more lines`);
  return shown.join("\n");
}
