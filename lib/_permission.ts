// Private: recognise a runtime's permission refusal (Deno's `NotCapable`, `PermissionDenied`;
// Node's permission model, `ERR_ACCESS_DENIED`), also when another error wraps it as its `cause`
// (a `StorageError` over a denied read), and say which flag grants what was refused.

const NAMES = new Set(["NotCapable", "PermissionDenied"]);

/** Node's permission scopes (`error.permission`) and the flag that grants each. */
const NODE_FLAGS: Record<string, string> = {
  FileSystemRead: "--allow-fs-read",
  FileSystemWrite: "--allow-fs-write",
  ChildProcess: "--allow-child-process",
  WorkerThreads: "--allow-worker",
};

/** The errors of the `cause` chain of `error`, outermost first (at most 8). */
function* chain(error: unknown): Generator<Error> {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) yield e;
}

/** Whether `error`, or an error in its `cause` chain, is a permission refusal. */
export function isPermissionError(error: unknown): boolean {
  for (const e of chain(error)) {
    if (NAMES.has(e.name) || (e as { code?: unknown }).code === "ERR_ACCESS_DENIED") return true;
  }
  return false;
}

/**
 * The message of `error`. Node's permission model says only "Access to this API has been
 * restricted"; when such a refusal is in the `cause` chain, the flag that grants it is added
 * (`--allow-fs-read=<path>`), as Deno's own messages do (`--allow-read`).
 */
export function deniedMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  for (const e of chain(error)) {
    const { code, permission, resource } = e as {
      code?: unknown;
      permission?: unknown;
      resource?: unknown;
    };
    if (code !== "ERR_ACCESS_DENIED" || typeof permission !== "string") continue;
    const flag = NODE_FLAGS[permission];
    if (flag === undefined || text.includes(flag)) return text;
    const scoped = flag.startsWith("--allow-fs-") && typeof resource === "string" &&
      resource !== "";
    return `${text}; run Node with ${scoped ? `${flag}=${resource}` : flag}`;
  }
  return text;
}
