// Private: a byte count for people: `512 B`, `1.4 kB`, `5.6 MB`.

/** `n` bytes as `512 B`, `1.4 kB` or `5.6 MB` (powers of 1024). */
export function formatBytes(n: number): string {
  return n < 1024
    ? `${n} B`
    : n < 1024 ** 2
    ? `${(n / 1024).toFixed(1)} kB`
    : `${(n / 1024 ** 2).toFixed(1)} MB`;
}
