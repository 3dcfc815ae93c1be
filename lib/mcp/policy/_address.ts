// Private: parse IP literals and classify them into the special-purpose ranges the
// strict URL policy refuses (IANA IPv4/IPv6 special-purpose registries, RFC 6890).
//
// Input is either a WHATWG-normalised URL hostname (IPv4 as a dotted quad, IPv6 in
// brackets and hex) or an address from a DNS answer (IPv6 possibly with a dotted
// IPv4 tail or a `%zone`). Anything else is "not an IP literal".

/** What an IP literal is. */
export interface AddressClass {
  /** 4 or 6. */
  family: 4 | 6;
  /** The normalised address (IPv6 without brackets or zone). */
  address: string;
  /** Refused by the strict policy. */
  blocked: boolean;
  /** A loopback address (127.0.0.0/8, ::1, or an IPv4-mapped loopback address). */
  loopback: boolean;
  /** Why it is special, e.g. `private (10.0.0.0/8)`; `public` when it is not. */
  reason: string;
}

/** Parse a dotted-quad IPv4 address into an unsigned 32-bit number. */
export function parseIPv4(text: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!parts) return undefined;
  let value = 0;
  for (let i = 1; i <= 4; i++) {
    const octet = Number(parts[i]);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** Parse an IPv6 address (brackets, `::`, a dotted IPv4 tail and a `%zone` allowed) into 8 groups. */
export function parseIPv6(text: string): number[] | undefined {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return undefined;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail = [Math.floor(v4 / 65536), v4 % 65536];
    s = s.slice(0, lastColon + 1);
    if (!s.endsWith("::")) s = s.slice(0, -1);
  }
  const groups = (part: string): number[] =>
    part === ""
      ? []
      : part.split(":").map((g) => /^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN);
  const gap = s.indexOf("::");
  let all: number[];
  if (gap >= 0) {
    if (s.indexOf("::", gap + 1) >= 0) return undefined;
    const head = groups(s.slice(0, gap));
    const rest = groups(s.slice(gap + 2));
    const fill = 8 - head.length - rest.length - tail.length;
    if (fill < 1) return undefined;
    all = [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
  } else {
    all = [...groups(s), ...tail];
  }
  return all.length === 8 && all.every((g) => Number.isInteger(g)) ? all : undefined;
}

interface Range {
  base: bigint;
  bits: number;
  cidr: string;
  label: string;
}

function v4Range(cidr: string, label: string): Range {
  const [address, bits] = cidr.split("/");
  return { base: BigInt(parseIPv4(address)!), bits: Number(bits), cidr, label };
}

function v6Range(cidr: string, label: string): Range {
  const [address, bits] = cidr.split("/");
  return { base: toBigInt(parseIPv6(address)!), bits: Number(bits), cidr, label };
}

function toBigInt(groups: number[]): bigint {
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function inRange(value: bigint, width: number, range: Range): boolean {
  const shift = BigInt(width - range.bits);
  return value >> shift === range.base >> shift;
}

/** IPv4 ranges refused in strict mode, most specific first. */
const V4: Range[] = [
  v4Range("255.255.255.255/32", "broadcast"),
  v4Range("0.0.0.0/8", '"this network"'),
  v4Range("10.0.0.0/8", "private"),
  v4Range("100.64.0.0/10", "carrier-grade NAT"),
  v4Range("127.0.0.0/8", "loopback"),
  v4Range("169.254.0.0/16", "link-local (cloud metadata)"),
  v4Range("172.16.0.0/12", "private"),
  v4Range("192.0.0.0/24", "IETF protocol assignments"),
  v4Range("192.0.2.0/24", "documentation"),
  v4Range("192.88.99.0/24", "6to4 relay anycast"),
  v4Range("192.168.0.0/16", "private"),
  v4Range("198.18.0.0/15", "benchmarking"),
  v4Range("198.51.100.0/24", "documentation"),
  v4Range("203.0.113.0/24", "documentation"),
  v4Range("224.0.0.0/4", "multicast"),
  v4Range("240.0.0.0/4", "reserved"),
];

/** IPv6 ranges refused in strict mode, most specific first. */
const V6: Range[] = [
  v6Range("::/128", "unspecified"),
  v6Range("::1/128", "loopback"),
  v6Range("::ffff:0:0/96", "IPv4-mapped"),
  v6Range("::/96", "IPv4-compatible (deprecated)"),
  v6Range("64:ff9b::/96", "NAT64 (embeds an IPv4 address)"),
  v6Range("64:ff9b:1::/48", "local-use NAT64"),
  v6Range("100::/64", "discard-only"),
  v6Range("2001::/32", "Teredo (embeds an IPv4 address)"),
  v6Range("2001:2::/48", "benchmarking"),
  v6Range("2001:db8::/32", "documentation"),
  v6Range("2001:10::/28", "ORCHID (deprecated)"),
  v6Range("2001:20::/28", "ORCHIDv2"),
  v6Range("2002::/16", "6to4 (embeds an IPv4 address)"),
  v6Range("3fff::/20", "documentation"),
  v6Range("fc00::/7", "private (unique local)"),
  v6Range("fe80::/10", "link-local"),
  v6Range("fec0::/10", "site-local (deprecated)"),
  v6Range("ff00::/8", "multicast"),
];

/** Global unicast; every IPv6 address outside it is unassigned or special. */
const GLOBAL_UNICAST = v6Range("2000::/3", "global unicast");

function formatV4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

function classifyV4(value: number): AddressClass {
  const address = formatV4(value);
  const hit = V4.find((r) => inRange(BigInt(value), 32, r));
  return {
    family: 4,
    address,
    blocked: hit !== undefined,
    loopback: hit?.cidr === "127.0.0.0/8",
    reason: hit ? `${hit.label} (${hit.cidr})` : "public",
  };
}

/**
 * Classify an IP literal. Returns `undefined` when `host` is not one (a DNS
 * name). IPv4-mapped IPv6 addresses are always blocked and report the embedded
 * IPv4 address and its range; `loopback` follows the embedded address.
 */
export function classifyAddress(host: string): AddressClass | undefined {
  const v4 = parseIPv4(host);
  if (v4 !== undefined) return classifyV4(v4);
  const groups = parseIPv6(host);
  if (groups === undefined) return undefined;
  const value = toBigInt(groups);
  const address = host.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  const hit = V6.find((r) => inRange(value, 128, r));
  if (hit?.cidr === "::ffff:0:0/96") {
    const inner = classifyV4(Number(value & 0xffffffffn));
    const what = inner.blocked ? inner.reason : "public";
    return {
      family: 6,
      address,
      blocked: true,
      loopback: inner.loopback,
      reason: `IPv4-mapped IPv6 (::ffff:0:0/96, embeds ${inner.address}: ${what})`,
    };
  }
  if (hit) {
    return {
      family: 6,
      address,
      blocked: true,
      loopback: hit.cidr === "::1/128",
      reason: `${hit.label} (${hit.cidr})`,
    };
  }
  if (!inRange(value, 128, GLOBAL_UNICAST)) {
    return {
      family: 6,
      address,
      blocked: true,
      loopback: false,
      reason: "reserved (outside 2000::/3)",
    };
  }
  return { family: 6, address, blocked: false, loopback: false, reason: "public" };
}
