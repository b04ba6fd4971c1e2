// The one address classifier of the service: which hosts and addresses are public, and which
// are loopback, private, link-local, CGNAT, cloud metadata, multicast, unspecified or reserved.
// Outbound webhooks (src/channels/safe-target.ts) and connector confinement (src/connectors/
// confinement.ts) both ask it, so a spelling one of them refuses the other refuses too.
//
// Hosts are read the way resolvers and URL parsers read them: IPv4 in decimal, octal, hex and
// short forms (2130706433, 0177.0.0.1, 0x7f.1, 127.1) through the WHATWG host parser, IPv6 with
// brackets, zones, embedded IPv4 (mapped, compatible, NAT64, 6to4), names with a trailing dot.
import net from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

export type CanonicalHost = { kind: 'ipv4' | 'ipv6'; address: string } | { kind: 'name'; name: string };

type V4Rule = [first: number, prefix: number, kind: AddressClass];

// Most specific first: the first rule that contains the address names its class.
const V4_RULES: V4Rule[] = [
  [ip4('169.254.169.254'), 32, 'metadata'], // AWS, GCP, Azure, OpenStack instance metadata
  [ip4('169.254.170.2'), 32, 'metadata'], // AWS ECS task metadata
  [ip4('168.63.129.16'), 32, 'metadata'], // Azure wire server (a public address used as metadata)
  [ip4('100.100.100.200'), 32, 'metadata'], // Alibaba Cloud metadata
  [ip4('0.0.0.0'), 8, 'unspecified'],
  [ip4('10.0.0.0'), 8, 'private'],
  [ip4('100.64.0.0'), 10, 'cgnat'],
  [ip4('127.0.0.0'), 8, 'loopback'],
  [ip4('169.254.0.0'), 16, 'link-local'],
  [ip4('172.16.0.0'), 12, 'private'],
  [ip4('192.0.0.0'), 24, 'reserved'],
  [ip4('192.0.2.0'), 24, 'reserved'],
  [ip4('192.88.99.0'), 24, 'reserved'],
  [ip4('192.168.0.0'), 16, 'private'],
  [ip4('198.18.0.0'), 15, 'reserved'],
  [ip4('198.51.100.0'), 24, 'reserved'],
  [ip4('203.0.113.0'), 24, 'reserved'],
  [ip4('224.0.0.0'), 4, 'multicast'],
  [ip4('240.0.0.0'), 4, 'reserved'], // includes 255.255.255.255
];

/** Names that are loopback or metadata whatever DNS says about them. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Parses a host as URL parsers and resolvers read it; null when it is no valid host at all. */
export function canonicalHost(raw: string): CanonicalHost | null {
  let host = raw;
  if (host.startsWith('[') || host.endsWith(']')) {
    if (!(host.startsWith('[') && host.endsWith(']'))) return null;
    host = host.slice(1, -1);
    if (!host.includes(':')) return null;
  }
  if (host.includes(':')) {
    const bytes = parseIPv6(host);
    return bytes ? { kind: 'ipv6', address: formatIPv6(bytes) } : null;
  }
  if (host === '' || /[\s/\\?#@%[\]]/.test(host)) return null;
  let parsed: string;
  try {
    parsed = new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
  if (net.isIPv4(parsed)) return { kind: 'ipv4', address: parsed };
  const name = parsed.replace(/\.$/, '').toLowerCase();
  if (name === '' || name.startsWith('.') || name.includes('..')) return null;
  return { kind: 'name', name };
}

/**
 * What a host names without asking DNS: an address class for literals and well-known names,
 * `name` for a name DNS has to answer, `invalid` for anything that is no host.
 */
export function classifyHost(raw: string): AddressClass | 'name' | 'invalid' {
  const host = canonicalHost(raw);
  if (!host) return 'invalid';
  if (host.kind !== 'name') return classifyAddress(host.address);
  if (host.name === 'localhost' || host.name.endsWith('.localhost')) return 'loopback';
  if (METADATA_NAMES.has(host.name)) return 'metadata';
  return 'name';
}

/** The class of one IP address (as DNS returns it, or any literal spelling). Non-addresses are `reserved`. */
export function classifyAddress(address: string): AddressClass {
  const plain = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(plain)) return classifyV4(ip4(plain));
  const host = plain.includes(':') ? null : canonicalHost(plain);
  if (host?.kind === 'ipv4') return classifyV4(ip4(host.address));
  const bytes = parseIPv6(plain);
  return bytes ? classifyV6(bytes) : 'reserved';
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

function classifyV4(value: number): AddressClass {
  for (const [first, prefix, kind] of V4_RULES) {
    if (inPrefix(value, first, prefix)) return kind;
  }
  return 'public';
}

function classifyV6(b: number[]): AddressClass {
  const word = (i: number) => (b[i * 2]! << 8) | b[i * 2 + 1]!;
  const zeroUntil = (n: number) => b.slice(0, n).every((x) => x === 0);
  const v4At = (i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
  if (zeroUntil(16)) return 'unspecified';
  if (zeroUntil(15) && b[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) reaches the IPv4 address itself.
  if (zeroUntil(10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(v4At(12));
  // ::a.b.c.d (deprecated IPv4-compatible): never public, and at least as bad as its IPv4 part.
  if (zeroUntil(12)) return nonPublic(classifyV4(v4At(12)));
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address; the local-use prefix is private.
  if (word(0) === 0x64 && word(1) === 0xff9b && word(2) === 0 && word(3) === 0 && word(4) === 0 && word(5) === 0) return classifyV4(v4At(12));
  if (word(0) === 0x64 && word(1) === 0xff9b && word(2) === 1) return 'private';
  if (word(0) === 0x2002) return classifyV4(v4At(2)); // 6to4 embeds the IPv4 address
  if (word(0) === 0x2001 && word(1) === 0) return 'reserved'; // Teredo: the client address is obfuscated
  if (word(0) === 0x2001 && word(1) === 0xdb8) return 'reserved'; // documentation
  if (word(0) === 0x100 && word(1) === 0 && word(2) === 0 && word(3) === 0) return 'reserved'; // discard
  if (formatIPv6(b) === 'fd00:ec2::254') return 'metadata'; // AWS metadata over IPv6
  if ((b[0]! & 0xfe) === 0xfc) return 'private'; // unique local fc00::/7
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'link-local';
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return 'private'; // deprecated site-local
  if (b[0] === 0xff) return 'multicast';
  if ((b[0]! & 0xe0) !== 0x20) return 'reserved'; // outside global unicast 2000::/3
  return 'public';
}

/** One spelling per address: IPv4-mapped IPv6 becomes IPv4, IPv6 compressed, zones dropped. */
export function normaliseAddress(address: string): string {
  const canonical = canonicalHost(address.includes(':') && !address.startsWith('[') ? `[${address}]` : address);
  if (!canonical || canonical.kind === 'name') return address;
  if (canonical.kind === 'ipv4') return canonical.address;
  const bytes = parseIPv6(canonical.address)!;
  const mapped = bytes.slice(0, 10).every((x) => x === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12).join('.') : canonical.address;
}

/**
 * The client a per-IP limit counts: an IPv4 address itself (mapped IPv6 included), an IPv6
 * address by its /64, which one subscriber usually holds whole (rotating inside it must not
 * escape the limit). Anything else is used as given.
 */
export function clientRateKey(ip: string): string {
  const bytes = parseIPv6(ip);
  if (!bytes) return ip;
  const mapped = bytes.slice(0, 10).every((x) => x === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join('.');
  const words = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${words.join(':')}::/64`;
}

function nonPublic(kind: AddressClass): AddressClass {
  return kind === 'public' ? 'reserved' : kind;
}

/** 16 bytes of an IPv6 address (zone and brackets removed), or null. */
export function parseIPv6(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!net.isIPv6(address)) return null;
  // An embedded dotted IPv4 tail becomes its two hex words, then one grammar is left to read.
  const head = address.replace(/(\d+\.\d+\.\d+\.\d+)$/, (dotted) => {
    const value = ip4(dotted);
    return `${((value >>> 16) & 0xffff).toString(16)}:${(value & 0xffff).toString(16)}`;
  });
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').filter((x) => x !== '').map((x) => parseInt(x, 16)) : []);
  const leftWords = parse(left);
  const rightWords = parse(right);
  const fill = 8 - leftWords.length - rightWords.length;
  if (fill < 0 || (right === undefined && fill !== 0)) return null;
  const words = [...leftWords, ...new Array<number>(fill).fill(0), ...rightWords];
  return words.flatMap((w) => [(w >> 8) & 0xff, w & 0xff]);
}

function formatIPv6(bytes: number[]): string {
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((bytes[i]! << 8) | bytes[i + 1]!);
  // The longest run of zero words (at least two) becomes "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j += 1;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function ip4(dotted: string): number {
  return dotted.split('.').reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

function inPrefix(value: number, first: number, prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = prefix === 32 ? 0xffffffff : (~0 << (32 - prefix)) >>> 0;
  return (value & mask) >>> 0 === (first & mask) >>> 0;
}

// ---- TOOLS_ALLOWED_HOSTS ----

export type AllowEntry =
  | { kind: 'name'; name: string; port?: number }
  | { kind: 'address'; bytes: number[]; prefix: number; port?: number };

/** Parses `host`, `host:port`, `[v6]:port`, IPv4/IPv6 literals and CIDRs, comma-separated. */
export function parseAllowList(text: string | undefined): AllowEntry[] {
  if (!text) return [];
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const entry = parseAllowEntry(item);
      if (!entry) throw new Error(`Invalid TOOLS_ALLOWED_HOSTS entry ${JSON.stringify(item)}: expected host, host:port or a CIDR`);
      return entry;
    });
}

function parseAllowEntry(item: string): AllowEntry | null {
  const cidr = /^(.+)\/(\d{1,3})$/.exec(item);
  if (cidr) {
    const bytes = addressBytes(cidr[1]!);
    const prefix = Number(cidr[2]);
    if (!bytes || prefix > bytes.length * 8) return null;
    return { kind: 'address', bytes, prefix };
  }
  const { host, port } = splitHostPort(item) ?? { host: '', port: undefined };
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) return null;
  const canonical = canonicalHost(host);
  if (!canonical) return null;
  const withPort = port === undefined ? {} : { port };
  if (canonical.kind === 'name') return { kind: 'name', name: canonical.name, ...withPort };
  const bytes = addressBytes(canonical.address)!;
  return { kind: 'address', bytes, prefix: bytes.length * 8, ...withPort };
}

/** `host:port` or `[v6]:port` or a bare host (an unbracketed IPv6 literal has no port). */
export function splitHostPort(text: string): { host: string; port: number | undefined } | null {
  const bracketed = /^(\[[^\]]*\])(?::(\d*))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] === undefined ? undefined : Number(bracketed[2] || NaN) };
  const colons = text.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = text.split(':') as [string, string];
    return { host, port: /^\d+$/.test(port) ? Number(port) : NaN };
  }
  return { host: text, port: undefined };
}

/** 4 bytes for IPv4 (any spelling), 16 for IPv6; mapped IPv6 is compared as IPv4. */
function addressBytes(text: string): number[] | null {
  const host = canonicalHost(text);
  if (!host || host.kind === 'name') return null;
  if (host.kind === 'ipv4') return host.address.split('.').map(Number);
  const bytes = parseIPv6(host.address)!;
  const mapped = bytes.slice(0, 10).every((x) => x === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

function bytesInPrefix(address: number[], entry: { bytes: number[]; prefix: number }): boolean {
  if (address.length !== entry.bytes.length) return false;
  for (let bit = 0; bit < entry.prefix; bit += 1) {
    const mask = 0x80 >> bit % 8;
    if ((address[bit >> 3]! & mask) !== (entry.bytes[bit >> 3]! & mask)) return false;
  }
  return true;
}

export interface AllowTarget {
  /** The name as written (absent for literals). */
  name?: string;
  port?: number;
  /** Every address the target resolved to. */
  addresses: string[];
}

/**
 * Whether an entry allows the target: a name entry by its name, an address or CIDR entry when
 * it contains every resolved address; an entry with a port only for that port. `exactPort`
 * says the matching entry named the port (only such an entry opens the service's own stores).
 */
export function matchesAllowList(list: AllowEntry[], target: AllowTarget): { allowed: boolean; exactPort: boolean } {
  const name = target.name ? canonicalHost(target.name) : null;
  for (const entry of list) {
    if (entry.port !== undefined && entry.port !== target.port) continue;
    const hit =
      entry.kind === 'name'
        ? name?.kind === 'name' && name.name === entry.name
        : target.addresses.length > 0 && target.addresses.every((address) => {
            const bytes = addressBytes(address);
            return bytes !== null && bytesInPrefix(bytes, entry);
          });
    if (hit) return { allowed: true, exactPort: entry.port !== undefined };
  }
  return { allowed: false, exactPort: false };
}
