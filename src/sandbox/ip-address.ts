/** Classifies IP addresses for the network policy (loopback, private, metadata). */

/**
 * IP address classification for the network policy: which addresses a
 * sandboxed tool (or web_fetch) may never reach. IPv6 forms that embed an
 * IPv4 address (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`, IPv4-compatible `::a.b.c.d`) are reduced to that IPv4 address
 * first, so `[::ffff:10.0.0.1]` is judged as 10.0.0.1.
 */

export type BlockReason =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'carrier-grade NAT'
  | 'link-local'
  | 'cloud metadata'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'unique-local'
  | 'benchmarking';

let net: typeof import('node:net') | undefined;

/**
 * node:net's isIP (4, 6 or 0), with node:net loaded on the first call: importing it
 * builds Node's socket and stream classes (~4 ms of every start-up here), and most runs
 * never check an address.
 */
export function isIP(input: string): number {
  net ??= import.meta.require('node:net') as typeof import('node:net');
  return net.isIP(input);
}

/** Cloud metadata endpoints: blocked even when private addresses are allowed. */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

function v4Bytes(ip: string): number[] | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  const out = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return out.every((n) => n >= 0 && n <= 255) ? out : undefined;
}

/** The 16 bytes of an IPv6 address (with an optional trailing dotted IPv4), or undefined. */
export function v6Bytes(ip: string): number[] | undefined {
  let s = ip.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = v4Bytes(s.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail = v4;
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const parse = (h: string): number[] | undefined => {
    if (h === '') return [];
    const groups = h.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN));
    return groups.some(Number.isNaN) ? undefined : groups;
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (head === undefined || rest === undefined) return undefined;
  const fill = 8 - head.length - rest.length;
  if ((halves.length === 2 && fill < 1) || (halves.length === 1 && fill !== 0)) return undefined;
  const groups = [...head, ...new Array<number>(Math.max(0, fill)).fill(0), ...rest];
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** The IPv4 address an IPv6 address stands for (mapped, NAT64, 6to4, compatible), if any. */
export function embeddedIPv4(bytes: readonly number[]): string | undefined {
  const zeros = (from: number, to: number): boolean => bytes.slice(from, to).every((b) => b === 0);
  const q = (at: number): string => bytes.slice(at, at + 4).join('.');
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return q(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return q(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return q(2);
  // ::a.b.c.d (deprecated IPv4-compatible), but not :: and ::1.
  if (zeros(0, 12) && !(zeros(12, 15) && (bytes[15] === 0 || bytes[15] === 1))) return q(12);
  return undefined;
}

function classifyV4(b: number[]): BlockReason | undefined {
  const [a = 0, c = 0, d = 0] = b;
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && c >= 16 && c <= 31) || (a === 192 && c === 168)) return 'private';
  if (a === 100 && c >= 64 && c <= 127) return 'carrier-grade NAT';
  if (a === 169 && c === 254) return 'link-local';
  if (a === 192 && c === 0 && d === 0) return 'reserved';
  if ((a === 192 && c === 0 && d === 2) || (a === 198 && c === 51 && d === 100) || (a === 203 && c === 0 && d === 113)) return 'documentation';
  if (a === 198 && (c === 18 || c === 19)) return 'benchmarking';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return undefined;
}

function classifyV6(b: number[]): BlockReason | undefined {
  if (b.every((x) => x === 0)) return 'unspecified';
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return 'loopback';
  const b0 = b[0] ?? 0;
  const b1 = b[1] ?? 0;
  if ((b0 & 0xfe) === 0xfc) return 'unique-local';
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return 'link-local';
  if (b0 === 0xfe && (b1 & 0xc0) === 0xc0) return 'private'; // deprecated site-local
  if (b0 === 0xff) return 'multicast';
  if (b0 === 0x20 && b1 === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'documentation';
  if (b0 === 0x01 && b1 === 0x00 && b.slice(2, 8).every((x) => x === 0)) return 'reserved'; // 100::/64 discard
  return undefined;
}

export interface AddressVerdict {
  /** The address as judged: IPv4 for an IPv6 that embeds one. */
  address: string;
  family: 4 | 6;
  blocked?: BlockReason;
  /** True for a cloud metadata endpoint (never allowed). */
  metadata: boolean;
}

/** Classify an IP literal (without brackets). Undefined when it is not an IP address. */
export function classifyAddress(ip: string): AddressVerdict | undefined {
  const kind = isIP(ip);
  if (kind === 4) {
    const b = v4Bytes(ip);
    if (b === undefined) return undefined;
    const address = b.join('.');
    const blocked = classifyV4(b);
    return { address, family: 4, metadata: METADATA.has(address), ...(blocked === undefined ? {} : { blocked }) };
  }
  if (kind !== 6) return undefined;
  const b = v6Bytes(ip);
  if (b === undefined) return undefined;
  const v4 = embeddedIPv4(b);
  if (v4 !== undefined) return classifyAddress(v4);
  const canonical = ip.toLowerCase().replace(/%.*$/, '');
  const blocked = classifyV6(b);
  const metadata = METADATA.has(canonical) || (b[0] === 0xfd && b[1] === 0x00 && b[2] === 0x0e && b[3] === 0xc2 && b.slice(4, 14).every((x) => x === 0) && b[14] === 0x02 && b[15] === 0x54);
  return { address: canonical, family: 6, metadata, ...(blocked === undefined ? {} : { blocked }) };
}
