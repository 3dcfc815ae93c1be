// Private: recognise a runtime's permission refusal (Deno's `NotCapable`, `PermissionDenied`;
// Node's permission model, `ERR_ACCESS_DENIED`), also when another error wraps it as its `cause`
// (a `StorageError` over a denied read).

const NAMES = new Set(["NotCapable", "PermissionDenied"]);

/** Whether `error`, or an error in its `cause` chain, is a permission refusal. */
export function isPermissionError(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (NAMES.has(e.name) || (e as { code?: unknown }).code === "ERR_ACCESS_DENIED") return true;
  }
  return false;
}
