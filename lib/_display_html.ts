// Private: the pieces notebook displays are made of (see _display.ts): escaping for HTML and
// Markdown, tables in text, HTML and Markdown. Loaded with the renderers, on first display.

import type { DisplayBundle } from "./_display.ts";

const HTML: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` safe inside HTML elements and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML[c]);
}

/** `text` as one line of inline Markdown: no HTML, no emphasis, links or table breaks. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[&<>]/g, (c) => HTML[c]).replace(
    /[\\`*_[\]{}()#+\-.!|~]/g,
    (c) => `\\${c}`,
  );
}

/** `text` in a fenced Markdown code block (longer fence than any backtick run inside). */
export function markdownFence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/** An HTML table; every header and cell is escaped here. */
export function htmlTable(headers: readonly string[], rows: readonly string[][]): string {
  const head = headers.map((h) => `<th style="text-align:left">${escapeHtml(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`);
  return `<table><thead><tr>${head}</tr></thead><tbody>${body.join("")}</tbody></table>`;
}

/** A Markdown table; every header and cell is escaped here. */
export function markdownTable(headers: readonly string[], rows: readonly string[][]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(escapeMarkdown).join(" | ")} |`;
  return [line(headers), `|${headers.map(() => " --- |").join("")}`, ...rows.map(line)].join("\n");
}

/** Plain-text columns, padded to the widest cell. */
export function textTable(headers: readonly string[], rows: readonly string[][]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  return all.map((r) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join("\n");
}

/** `text` cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Rows shown before "… n more". */
const SHOWN = 60;

/** A title, a table and notes, as text, HTML and Markdown. */
export function tableDisplay(
  className: string,
  title: string,
  headers: readonly string[],
  rows: readonly string[][],
  notes: readonly string[] = [],
): DisplayBundle {
  const shown = rows.slice(0, SHOWN);
  const more = rows.length > SHOWN ? [`… ${rows.length - SHOWN} more rows`] : [];
  const after = [...more, ...notes];
  return {
    "text/plain": [title, textTable(headers, shown), ...after].join("\n"),
    "text/html": `<div class="${className}"><p>${escapeHtml(title)}</p>${
      htmlTable(headers, shown)
    }${
      after.length ? `<ul>${after.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>` : ""
    }</div>`,
    "text/markdown": [
      escapeMarkdown(title),
      markdownTable(headers, shown),
      ...after.map((n) => `- ${escapeMarkdown(n)}`),
    ].join("\n\n"),
  };
}
