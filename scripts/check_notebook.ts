// Check a notebook that scripts/run_notebook.py (or `jupyter nbconvert --execute`) ran: every code
// cell ran, none errored or wrote to stderr, and the results rendered richly (text/html from
// Symbol.for("Jupyter.display")) in at least as many cells as `--min-html` says. Prints one summary
// line the test command counts.
//
//   node --import tsx scripts/check_notebook.ts /tmp/quickstart.out.ipynb --min-html 7

import { readFile } from "node:fs/promises";

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  ename?: string;
  evalue?: string;
  data?: Record<string, unknown>;
}
interface Cell {
  cell_type: string;
  source: string | string[];
  execution_count?: number | null;
  outputs?: Output[];
}

const [path, flag, min] = process.argv.slice(2);
if (path === undefined || (flag !== undefined && flag !== "--min-html")) {
  console.error("usage: check_notebook.ts <executed.ipynb> [--min-html N]");
  process.exit(2);
}
const minHtml = min === undefined ? 1 : Number(min);
const notebook = JSON.parse(await readFile(path, "utf8")) as { cells: Cell[] };
const code = notebook.cells.filter((c) => c.cell_type === "code");
const text = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join("") : value ?? "";
const problems: string[] = [];
let html = 0;
let ran = 0;
code.forEach((cell, i) => {
  const where = `cell ${i + 1} (${text(cell.source).split("\n")[0].slice(0, 60)})`;
  if (typeof cell.execution_count !== "number") problems.push(`${where} did not run`);
  else ran++;
  for (const out of cell.outputs ?? []) {
    if (out.output_type === "error") problems.push(`${where}: ${out.ename}: ${out.evalue}`);
    if (out.output_type === "stream" && out.name === "stderr") {
      problems.push(`${where} wrote to stderr: ${text(out.text).slice(0, 300)}`);
    }
  }
  // nbformat stores multi-line text as a list of lines.
  const rich = (o: Output) => text(o.data?.["text/html"] as string | string[] | undefined) !== "";
  if ((cell.outputs ?? []).some(rich)) html++;
});
if (html < minHtml) problems.push(`${html} cells rendered text/html; expected at least ${minHtml}`);
for (const p of problems) console.error(`notebook: ${p}`);
console.log(
  `notebook: ${ran} of ${code.length} cells run, ${problems.length} failed, ${html} rich (text/html)`,
);
process.exit(problems.length === 0 ? 0 : 1);
