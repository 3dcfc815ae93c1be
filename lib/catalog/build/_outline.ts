// Private: what a skill body without structured sections (no Concepts, no Examples: most Agent
// Skills) says it is about, for the keyword index: its headings (read like example tasks), the
// first paragraph under each heading, and the first line of each command it shows. Bounded: at
// most MAX_ROWS rows of each kind, each cut to MAX_LINE characters, from the first MAX_BODY
// characters of the body.

const MAX_BODY = 60_000;
const MAX_ROWS = 40;
const MAX_LINE = 300;

/** The outline of a body: headings, first paragraphs, commands. */
export interface Outline {
  headings: string[];
  paragraphs: string[];
  commands: string[];
}

const cut = (line: string) => line.replace(/\s+/g, " ").trim().slice(0, MAX_LINE);
/** Markdown marks that are not words: emphasis, code ticks, links' targets. */
const plain = (line: string) =>
  line.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*_`>#|]+/g, " ");

/** The outline of `body` (see the top of this file). */
export function outlineOf(body: string): Outline {
  const out: Outline = { headings: [], paragraphs: [], commands: [] };
  const lines = body.slice(0, MAX_BODY).split("\n");
  let fence: string | null = null;
  let firstOfFence = false;
  let wantParagraph = true;
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0 && out.paragraphs.length < MAX_ROWS) {
      const text = cut(plain(paragraph.join(" ")));
      if (text.length > 0) out.paragraphs.push(text);
      wantParagraph = false;
    }
    paragraph = [];
  };
  for (const line of lines) {
    const fenceMark = /^\s*(```+|~~~+)/.exec(line);
    if (fence !== null) {
      if (fenceMark && fenceMark[1][0] === fence[0] && fenceMark[1].length >= fence.length) {
        fence = null;
      } else if (firstOfFence && line.trim() !== "" && !line.trim().startsWith("#")) {
        if (out.commands.length < MAX_ROWS) out.commands.push(cut(line));
        firstOfFence = false;
      }
      continue;
    }
    if (fenceMark) {
      endParagraph();
      fence = fenceMark[1];
      firstOfFence = true;
      continue;
    }
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      endParagraph();
      if (out.headings.length < MAX_ROWS) out.headings.push(cut(plain(heading[1])));
      wantParagraph = true;
      continue;
    }
    if (line.trim() === "") endParagraph();
    else if (wantParagraph && !/^\s*([-*+]|\d+\.)\s/.test(line) && !line.startsWith("|")) {
      paragraph.push(line);
    }
  }
  endParagraph();
  return out;
}
