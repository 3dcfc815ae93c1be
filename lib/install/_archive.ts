// Private: unpack a skill archive of an Agent Skills discovery index (`.tar.gz` or `.zip`, told
// apart by their first bytes) into memory, safely: no absolute path, no `..`, no symlink, hard
// link or device, at most `maxFiles` files and `maxBytes` bytes unpacked (a decompression bomb
// stops at the cap, never read further), no encrypted or ZIP64 entries. The skill's files are at
// the root (`SKILL.md`, `scripts/…`); one wrapper folder around them is taken off.

import { InstallError } from "./errors.ts";

/** One file of an archive. */
export interface ArchiveFile {
  path: string;
  bytes: Uint8Array;
}

/** Caps of one archive. */
export interface ArchiveLimits {
  maxFiles: number;
  maxBytes: number;
  /** For messages. */
  what: string;
}

const fail = (limits: ArchiveLimits, why: string): never => {
  throw new InstallError(
    "invalid-skill",
    `Cannot unpack ${limits.what}: ${why}; nothing was written`,
  );
};

/** A path of an archive as a plain relative path, or a refusal. */
function plainPath(raw: string, limits: ArchiveLimits): string | undefined {
  const path = raw.replace(/^(?:\.\/)+/, "").replace(/\/+$/, "");
  if (path === "" || path === ".") return undefined;
  // deno-lint-ignore no-control-regex -- control characters in a name are refused
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw) || /[\\\u0000-\u001f]/.test(path)) {
    fail(limits, `${JSON.stringify(raw)} is not a relative path`);
  }
  if (path.split("/").some((part) => part === ".." || part === "" || part === ".")) {
    fail(limits, `${JSON.stringify(raw)} leads out of the skill folder`);
  }
  return path;
}

/** Inflate a whole stream with `format`, stopping at `cap` bytes. */
async function inflate(
  bytes: Uint8Array,
  format: "gzip" | "deflate-raw",
  cap: number,
  limits: ArchiveLimits,
): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new DecompressionStream(format),
  );
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        await reader.cancel().catch(() => {});
        fail(limits, `it unpacks to more than ${cap} bytes (the limit)`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if ((error as Error).name === "InstallError") throw error;
    fail(limits, `the ${format === "gzip" ? "gzip" : "deflate"} data is corrupt`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) (out.set(chunk, at), at += chunk.byteLength);
  return out;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).replace(/\0.*$/s, "");

/** The files of a tar stream. */
function untar(tar: Uint8Array, limits: ArchiveLimits): ArchiveFile[] {
  const files: ArchiveFile[] = [];
  let longName: string | undefined;
  let paxPath: string | undefined;
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(text(header.subarray(124, 136)).trim() || "0", 8);
    if (!Number.isSafeInteger(size) || size < 0) fail(limits, "a tar header is corrupt");
    const type = String.fromCharCode(header[156]);
    const body = tar.subarray(at + 512, at + 512 + size);
    if (body.length < size) fail(limits, "the tar stream ends inside a file");
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = text(body);
      continue;
    }
    if (type === "x") {
      paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(body))?.[1];
      continue;
    }
    if (type === "g") continue;
    const prefix = text(header.subarray(345, 500));
    const name = paxPath ?? longName ??
      (prefix ? `${prefix}/` : "") + text(header.subarray(0, 100));
    longName = paxPath = undefined;
    if (type === "5") continue;
    if (type !== "0" && type !== "\0" && type !== "7") {
      const kind = type === "2"
        ? "a symbolic link"
        : type === "1"
        ? "a hard link"
        : "not a regular file";
      fail(limits, `${JSON.stringify(name)} is ${kind}`);
    }
    const path = plainPath(name, limits);
    if (path !== undefined) files.push({ path, bytes: body.slice() });
  }
  return files;
}

const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;

/** The files of a zip archive. */
async function unzip(zip: Uint8Array, limits: ArchiveLimits): Promise<ArchiveFile[]> {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 65_557); at--) {
    if (u32(zip, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) fail(limits, "it is not a zip archive (no end of central directory)");
  const count = u16(zip, end + 10);
  let at = u32(zip, end + 16);
  if (count === 0xffff || at === 0xffffffff) fail(limits, "ZIP64 archives are not supported");
  if (count > limits.maxFiles + 64) {
    fail(limits, `it holds more than ${limits.maxFiles} files (the limit)`);
  }
  const files: ArchiveFile[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (u32(zip, at) !== 0x02014b50) fail(limits, "the central directory is corrupt");
    const flags = u16(zip, at + 8);
    const method = u16(zip, at + 10);
    const packed = u32(zip, at + 20);
    const size = u32(zip, at + 24);
    const nameLength = u16(zip, at + 28);
    const extra = u16(zip, at + 30);
    const comment = u16(zip, at + 32);
    const mode = (u32(zip, at + 38) >>> 16) & 0o170000;
    const local = u32(zip, at + 42);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
    if (name.endsWith("/")) continue;
    if (flags & 1) fail(limits, `${JSON.stringify(name)} is encrypted`);
    if (mode === 0o120000) fail(limits, `${JSON.stringify(name)} is a symbolic link`);
    if (mode !== 0 && mode !== 0o100000) {
      fail(limits, `${JSON.stringify(name)} is not a regular file`);
    }
    if ((total += size) > limits.maxBytes) {
      fail(limits, `it unpacks to more than ${limits.maxBytes} bytes (the limit)`);
    }
    const path = plainPath(name, limits);
    if (u32(zip, local) !== 0x04034b50) {
      fail(limits, `the entry of ${JSON.stringify(name)} is corrupt`);
    }
    const start = local + 30 + u16(zip, local + 26) + u16(zip, local + 28);
    const data = zip.subarray(start, start + packed);
    const bytes = method === 0
      ? data.slice()
      : method === 8
      ? await inflate(data, "deflate-raw", size, limits)
      : fail(limits, `${JSON.stringify(name)} uses compression method ${method}`);
    if (bytes.byteLength !== size) fail(limits, `${JSON.stringify(name)} is not the size it says`);
    if (path !== undefined) files.push({ path, bytes });
  }
  return files;
}

/** The files of a skill archive (`.tar.gz` or `.zip`), checked; see the top of this file. */
export async function unpackArchive(
  bytes: Uint8Array,
  limits: ArchiveLimits,
): Promise<ArchiveFile[]> {
  let files: ArchiveFile[];
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    // Tar adds a 512-byte header per file and pads each to 512 bytes.
    const cap = limits.maxBytes + (limits.maxFiles + 16) * 1_024;
    files = untar(await inflate(bytes, "gzip", cap, limits), limits);
  } else if (u32(bytes, 0) === 0x04034b50 || u32(bytes, 0) === 0x06054b50) {
    files = await unzip(bytes, limits);
  } else {
    return fail(limits, "it is neither a .tar.gz nor a .zip archive");
  }
  // One wrapper folder around SKILL.md (`pdf/SKILL.md`, `pdf/scripts/…`) is taken off.
  if (!files.some((f) => f.path === "SKILL.md")) {
    const tops = new Set(files.map((f) => f.path.split("/")[0]));
    const [top] = tops;
    if (tops.size === 1 && files.some((f) => f.path === `${top}/SKILL.md`)) {
      files = files.map((f) => ({ ...f, path: f.path.slice(top.length + 1) }));
    } else fail(limits, "it holds no SKILL.md at its root");
  }
  if (files.length > limits.maxFiles + 1) {
    fail(limits, `it holds more than ${limits.maxFiles} files (the limit)`);
  }
  const seen = new Set<string>();
  let total = 0;
  for (const file of files) {
    const key = file.path.toLowerCase();
    if (seen.has(key)) fail(limits, `${file.path} is in it twice`);
    seen.add(key);
    if ((total += file.bytes.byteLength) > limits.maxBytes) {
      fail(limits, `it unpacks to more than ${limits.maxBytes} bytes (the limit)`);
    }
  }
  return files;
}
