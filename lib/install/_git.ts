// Private, Deno/Node only: a git repository checked out at a ref, for `skill install
// <git-url|path>#ref`. git runs without a shell (execFile, arguments as a list, `--` before the
// URL), never prompts (GIT_TERMINAL_PROMPT=0), may only use the file, git, http(s) and ssh
// transports (GIT_ALLOW_PROTOCOL: never `ext::`, which runs a command), runs no hooks and fetches
// no LFS content. Nothing of the checkout is ever run.

import { nodeBuiltins } from "../_node.ts";
import { InstallError } from "./errors.ts";

/** A checkout: its folder, the commit it is at, and how to remove it. */
export interface Checkout {
  dir: string;
  commit: string;
  remove(): Promise<void>;
}

/** Options of {@linkcode checkout}. */
export interface GitOptions {
  /** The git program (default `git` on the PATH). */
  git?: string;
  /** The longest a clone may take, in milliseconds (default 120 000). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const SAFE_ENV = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_ALLOW_PROTOCOL: "file:git:http:https:ssh",
  GIT_LFS_SKIP_SMUDGE: "1",
  GIT_ASKPASS: "",
  SSH_ASKPASS: "",
};

/** `url` without user and password, for messages and the lock file. */
export function showRepo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
}

/** Run git with `args` in `cwd`; its stdout, or an InstallError with its stderr. */
async function git(args: string[], cwd: string, options: GitOptions): Promise<string> {
  const { childProcess } = nodeBuiltins("Installing from git");
  const env = {
    ...(globalThis as { process?: { env?: Record<string, string> } }).process?.env,
    ...SAFE_ENV,
  };
  return await new Promise<string>((done, reject) => {
    childProcess.execFile(
      options.git ?? "git",
      ["-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never", ...args],
      {
        cwd,
        env,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 1024 * 1024,
        signal: options.signal,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error === null) return done(String(stdout));
        const code = (error as { code?: unknown }).code;
        const why = code === "ENOENT"
          ? "git is not installed (or not on the PATH)"
          : String(stderr).trim().split("\n").slice(-3).join(" ") || error.message;
        reject(new InstallError("network", `git ${args[0]} failed: ${why}`, { cause: error }));
      },
    );
  });
}

/** Clone `url` into a fresh temp folder named `name` and check out `ref` (default: HEAD). */
export async function checkout(
  url: string,
  ref: string | undefined,
  name: string,
  options: GitOptions = {},
): Promise<Checkout> {
  if (url.startsWith("-") || /^(?:ext|fd)::/i.test(url)) {
    throw new InstallError("policy", `Refusing the git URL ${JSON.stringify(url)}`);
  }
  if (ref !== undefined && (ref.startsWith("-") || !/^[\w./@^~{}-]+$/.test(ref))) {
    throw new InstallError("config", `Invalid git ref ${JSON.stringify(ref)}`);
  }
  const { fs, os, path } = nodeBuiltins("Installing from git");
  const base = await fs.mkdtemp(path.join(os.tmpdir(), "skillmux-git-"));
  const dir = path.join(base, name);
  const remove = () => fs.rm(base, { recursive: true, force: true });
  try {
    await git(["clone", "--quiet", "--no-checkout", "--", url, dir], base, options);
    // A branch other than the default one exists as origin/<ref> in a fresh clone.
    const tries = ref === undefined ? ["HEAD"] : [ref, `origin/${ref}`];
    let last: unknown;
    for (const target of tries) {
      last = await git(["checkout", "--quiet", "--detach", target, "--"], dir, options)
        .then(() => undefined, (error: unknown) => error);
      if (last === undefined) break;
    }
    if (last !== undefined) {
      throw new InstallError(
        "not-found",
        `${showRepo(url)} has no ref ${JSON.stringify(ref ?? "HEAD")}: ${(last as Error).message}`,
        { cause: last },
      );
    }
    const commit = (await git(["rev-parse", "HEAD"], dir, options)).trim();
    return { dir, commit, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
