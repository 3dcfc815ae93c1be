// Private: the sha256 digests every layer records and compares (a skill's, a file's, a catalog
// entry's, an index segment's, a vector's key), and the one UTF-8 encoder they hash through.
// Shared ground: web-standard globals only.

/** UTF-8 encoder shared by the library. */
export const encoder: TextEncoder = new TextEncoder();

/** `sha256:<64 hex>` of `bytes`. */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  let hex = "";
  for (const byte of hash) hex += byte.toString(16).padStart(2, "0");
  return `sha256:${hex}`;
}
