// Private: read a zip archive (an MCP bundle) in memory: stored and deflated entries, checked
// before anything is written — no absolute paths, no `..`, no links, sizes capped and equal
// to what the archive declares. Inflating uses the web-standard DecompressionStream.

import { DirectoryError } from "./errors.ts";

/** One file of an archive. */
export interface ZipFile {
  /** Its path inside the archive (`/`-separated, relative, no `..`). */
  path: string;
  /** Its bytes. */
  bytes: Uint8Array;
  /** Whether the archive marks it executable (Unix mode). */
  executable: boolean;
}

const MAX_FILES = 10_000;

async function inflate(data: Uint8Array, size: number, path: string): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(
    new DecompressionStream("deflate-raw"),
  );
  const reader = stream.getReader();
  const out = new Uint8Array(size);
  let at = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (at + chunk.value.byteLength > size) {
      await reader.cancel();
      throw bad(`${path} inflates past the ${size} bytes the archive declares`);
    }
    out.set(chunk.value, at);
    at += chunk.value.byteLength;
  }
  if (at !== size) throw bad(`${path} inflates to ${at} bytes, not the ${size} declared`);
  return out;
}

function bad(why: string): DirectoryError {
  return new DirectoryError("invalid", `The bundle is not a valid archive: ${why}`, {
    field: "bundle",
  });
}

/** The files of the zip archive `bytes`, at most `maxBytes` unpacked in all. */
export async function readZip(bytes: Uint8Array, maxBytes: number): Promise<ZipFile[]> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw bad("no end of central directory (not a zip file)");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw bad("zip64 archives are not supported");
  if (count > MAX_FILES) throw bad(`more than ${MAX_FILES} files`);
  const files: ZipFile[] = [];
  let total = 0;
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) {
      throw bad("a damaged central directory");
    }
    const method = view.getUint16(at + 10, true);
    const packed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const mode = view.getUint32(at + 38, true) >>> 16;
    const local = view.getUint32(at + 42, true);
    const path = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
    if (path.endsWith("/")) continue; // a folder
    if (
      path.startsWith("/") || path.includes("\\") || /^[A-Za-z]:/.test(path) ||
      path.split("/").some((part) => part === ".." || part === "")
    ) throw bad(`the path ${JSON.stringify(path.slice(0, 200))} leaves the bundle folder`);
    if ((mode & 0o170000) === 0o120000) throw bad(`${path} is a symbolic link`);
    total += size;
    if (total > maxBytes) throw bad(`it unpacks to more than ${maxBytes} bytes`);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) {
      throw bad(`a damaged entry (${path})`);
    }
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + packed);
    if (data.length !== packed) throw bad(`${path} is cut short`);
    let content: Uint8Array;
    if (method === 0) {
      if (packed !== size) throw bad(`${path} is stored with two sizes`);
      content = data.slice();
    } else if (method === 8) content = await inflate(data, size, path);
    else throw bad(`${path} uses compression method ${method} (only stored and deflate are read)`);
    files.push({ path, bytes: content, executable: (mode & 0o111) !== 0 });
  }
  return files;
}
