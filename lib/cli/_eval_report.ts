// Private: `skillmux eval` as text: the figures, then every miss.

import type { Evaluation } from "../catalog/select/evaluate.ts";

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** The report's lines. */
export function evaluationLines(report: Evaluation, via: string): string[] {
  const lines = [
    `${report.requests} requests (${report.labelled.ids} with ids, ${report.labelled.none} "none"), selected via ${via}`,
    `top-1 ${pct(report.top1)}  top-3 ${pct(report.top3)}  MRR ${report.mrr.toFixed(3)}`,
    `"none" precision ${pct(report.nonePrecision)}  recall ${pct(report.noneRecall)}  ` +
    `skills where none was wanted: ${report.unwantedSkills}`,
    `prompt tokens per request: ${report.promptTokens}`,
  ];
  if (report.misses.length > 0) lines.push("", `Misses (${report.misses.length}):`);
  for (const m of report.misses) {
    const want = m.expected === "none" ? "none" : m.expected.join(" or ");
    lines.push(`  "${m.request}" → ${m.selected.join(", ") || "(nothing)"}; expected ${want}`);
  }
  return lines;
}
