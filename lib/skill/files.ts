/**
 * The files of a skill folder: which paths belong to a skill (the one dot-file rule every path
 * follows: listing, serving, installing), what is known of each file, and the default caps.
 *
 * @module
 */

/**
 * One file of a skill folder besides its `SKILL.md`, as every path reports it (the resolver,
 * `skill show`, the skills server, the installer).
 *
 * @example
 * ```ts
 * import type { SkillFileInfo } from "@skillmux/core/skill";
 * const file: SkillFileInfo = { path: "scripts/fill.py", size: 1234, digest: "sha256:" + "0".repeat(64) };
 * console.log(file.path);
 * ```
 */
export interface SkillFileInfo {
  /** The path inside the skill folder, `/`-separated (`references/api.md`). */
  path: string;
  /** Its length in bytes. */
  size: number;
  /** `sha256:<64 lowercase hex>` of its bytes. */
  digest: string;
}

/** Folders and files that are never part of a skill, by name (any depth). */
const NEVER = new Set([".git", ".hg", ".svn", ".DS_Store", "Thumbs.db", "__pycache__"]);
/** `.env` files are secrets; these three are the templates people commit. */
const ENV_TEMPLATE = /^\.env\.(?:example|sample|template|dist)$/;
/** Key and credential files. */
const SECRET =
  /^(?:id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:\.pub)?|\.netrc|_netrc|\.npmrc|\.pypirc|\.htpasswd|\.pgpass|credentials(?:\.json)?)$|\.(?:pem|key|p12|pfx|jks|keystore|kdbx|ppk|gpg|asc)$/i;

/**
 * Why `path` (relative to a skill folder, `/`-separated) is not part of the skill, or
 * `undefined` when it is. The rule, the same for listing, serving and installing:
 *
 * - a path inside a folder whose name starts with `.` (`.git/`, `.venv/`, `.github/`) is not;
 * - nor `.git`, `.hg`, `.svn`, `.DS_Store`, `Thumbs.db` and `__pycache__` anywhere;
 * - nor `.env` and `.env.<anything>` (secrets), except the templates `.env.example`,
 *   `.env.sample`, `.env.template` and `.env.dist`;
 * - nor key and credential files: `*.pem`, `*.key`, `*.p12`, `*.pfx`, `*.jks`, `*.keystore`,
 *   `*.kdbx`, `*.ppk`, `*.gpg`, `*.asc`, `id_rsa`, `id_ed25519` (and the other SSH key names,
 *   `.pub` included), `.netrc`, `.npmrc`, `.pypirc`, `.htpasswd`, `.pgpass`, `credentials`;
 * - other dot files (`.gitignore`, `.env.example`, `assets/.prettierrc`) are part of the skill.
 *
 * A path with an empty, `.` or `..` segment, a backslash or a control character is never part
 * of a skill.
 *
 * @param path A path inside the skill folder.
 * @returns A short reason, or `undefined` for a file of the skill.
 *
 * @example
 * ```ts
 * import { skillFileExclusion } from "@skillmux/core/skill";
 * console.log(skillFileExclusion("scripts/fill.py")); // undefined
 * console.log(skillFileExclusion("assets/.env.example")); // undefined
 * console.log(skillFileExclusion(".env")); // "a .env file (secrets)"
 * console.log(skillFileExclusion(".git/config")); // "inside .git/"
 * ```
 */
export function skillFileExclusion(path: string): string | undefined {
  // deno-lint-ignore no-control-regex -- control characters are exactly what is refused
  if (typeof path !== "string" || path === "" || /[\\\u0000-\u001f\u007f]/.test(path)) {
    return "not a plain relative path";
  }
  const parts = path.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) return "not a plain relative path";
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    if (NEVER.has(part)) return last ? `a ${part} file` : `inside ${part}/`;
    if (!last && part.startsWith(".")) return `inside ${part}/`;
  }
  const name = parts[parts.length - 1]!;
  if ((name === ".env" || name.startsWith(".env.")) && !ENV_TEMPLATE.test(name)) {
    return "a .env file (secrets)";
  }
  if (SECRET.test(name)) return "a key or credential file";
  return undefined;
}

/**
 * Whether `path` is part of a skill: {@linkcode skillFileExclusion} finds nothing against it.
 *
 * @param path A path inside the skill folder.
 * @returns `true` for a file of the skill.
 *
 * @example
 * ```ts
 * import { isSkillFile } from "@skillmux/core/skill";
 * console.log(["SKILL.md", "id_rsa", "references/a.md"].filter(isSkillFile)); // ["SKILL.md", "references/a.md"]
 * ```
 */
export function isSkillFile(path: string): boolean {
  return skillFileExclusion(path) === undefined;
}

/**
 * The default caps on one skill folder: files (besides `SKILL.md`) and bytes in all. Real
 * published skills reach 82 files and 5.6 MB; a folder past a cap is refused, not cut.
 *
 * @example
 * ```ts
 * import { SKILL_FOLDER_LIMITS } from "@skillmux/core/skill";
 * console.log(SKILL_FOLDER_LIMITS.maxFiles, SKILL_FOLDER_LIMITS.maxBytes); // 1000 52428800
 * ```
 */
export const SKILL_FOLDER_LIMITS: { readonly maxFiles: number; readonly maxBytes: number } = Object
  .freeze({ maxFiles: 1_000, maxBytes: 50 * 1024 * 1024 });
