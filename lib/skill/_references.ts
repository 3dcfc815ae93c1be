// Private: the files a skill's body points at by relative path, for lint to check that each one
// is in the skill's folder. Two forms count: the target of a Markdown link or image
// (`[guide](references/guide.md)`, outside code blocks), and a path under `scripts/`,
// `references/`, `assets/` or another top-level folder of the skill, with a file extension,
// anywhere (`python scripts/office/unpack.py`). Placeholders (`<name>`, `{x}`, `*`, `$VAR`) are
// not paths.

/** A path the body names, with the 1-based line of the body it is on. */
export interface BodyReference {
  path: string;
  line: number;
  /** `link` for a Markdown link target, `mention` for a path in running text or code. */
  form: "link" | "mention";
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const LINK = /!?\[[^\]\n]*\]\(\s*<?([^()\s<>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const PLACEHOLDER = /[<>{}*$%|\\]|\.\.\.|…/;
const CONVENTIONAL = ["scripts", "references", "assets"];

/** `path` without `./`, `#fragment` and `?query`, percent-decoded; `undefined` if not a local path. */
function localPath(raw: string): string | undefined {
  if (raw === "" || raw.startsWith("#") || raw.startsWith("/") || raw.startsWith("~")) {
    return undefined;
  }
  if (SCHEME.test(raw) || raw.startsWith("//")) return undefined;
  let path = raw.replace(/[#?].*$/, "");
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  while (path.startsWith("./")) path = path.slice(2);
  if (path === "" || PLACEHOLDER.test(path)) return undefined;
  return path;
}

/** The relative paths `body` names; `folders` are the skill's top-level folders. */
export function bodyReferences(body: string, folders: readonly string[] = []): BodyReference[] {
  const roots = [...new Set([...CONVENTIONAL, ...folders])].map((f) =>
    f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  );
  const mention = new RegExp(
    `(?<![\\w./-])((?:${
      roots.join("|")
    })/(?:[\\w.-]+/)*[\\w-][\\w.-]*\\.[A-Za-z0-9]{1,8})(?![\\w/-])`,
    "g",
  );
  const out: BodyReference[] = [];
  const seen = new Set<string>();
  const add = (path: string, line: number, form: BodyReference["form"]) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.push({ path, line, form });
  };
  let fence: string | undefined;
  body.split("\n").forEach((text, index) => {
    const line = index + 1;
    const opened = FENCE.exec(text)?.[1];
    if (fence !== undefined) {
      const close = CLOSING_FENCE.exec(text)?.[1];
      if (close !== undefined && close[0] === fence[0] && close.length >= fence.length) {
        fence = undefined;
      }
    } else if (opened !== undefined) {
      fence = opened;
    } else {
      for (const match of text.matchAll(LINK)) {
        const path = localPath(match[1]!);
        if (path !== undefined) add(path, line, "link");
      }
    }
    for (const match of text.matchAll(mention)) {
      const path = localPath(match[1]!);
      if (path !== undefined) add(path, line, "mention");
    }
  });
  return out;
}

/** `a/./b/../c` → `a/c`; `undefined` when the path climbs out of its root. */
export function normalizeRelative(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}
