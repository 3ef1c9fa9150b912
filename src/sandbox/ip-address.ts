/**
 * Classifies IP addresses for the network policy (loopback, private, metadata),
 * with ipaddr.js: the one matcher WebFetch, the WASM tools and the OS
 * sandbox's proxy share. IPv6 forms that embed an IPv4 address (mapped
 * `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`, IPv4-compatible `::a.b.c.d`) are judged as that IPv4 address,
 * so `[::ffff:127.0.0.1]` is loopback.
 */
import * as net from 'node:net';
import ipaddr from 'ipaddr.js';

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


/**
 * node:net's isIP (4, 6 or 0). Strict: `0x7f.1` or `2130706433` are names here, and a name is
 * checked on the addresses it resolves to.
 */
export function isIP(input: string): number {
  return net.isIP(input);
}

/** Cloud metadata endpoints: blocked even when private addresses are allowed. */
const METADATA = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'];

const cidrs = <T extends ipaddr.IPv4 | ipaddr.IPv6>(list: string[]): [T, number][] => list.map((c) => ipaddr.parseCIDR(c) as [T, number]);

/** ipaddr.js's range names, as the policy words them; `unicast` (its default) and the IPv6 embeddings are handled apart. */
const V4_RANGES: Partial<Record<string, BlockReason>> = {
  unspecified: 'unspecified',
  broadcast: 'reserved',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
};
const V6_RANGES: Partial<Record<string, BlockReason>> = {
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique-local',
  teredo: 'reserved',
  reserved: 'documentation',
};
/** What ipaddr.js 1.x does not name: RFC 5737 documentation (inside its `reserved`), benchmarking, IPv6 site-local and discard. */
const V4_EXTRA: Record<string, [ipaddr.IPv4, number][]> = {
  documentation: cidrs(['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24']),
  benchmarking: cidrs(['198.18.0.0/15']),
};
const V6_EXTRA: Record<string, [ipaddr.IPv6, number][]> = { private: cidrs(['fec0::/10']), reserved: cidrs(['100::/64']) };

export interface AddressVerdict {
  /** The address as judged: IPv4 for an IPv6 that embeds one. */
  address: string;
  family: 4 | 6;
  blocked?: BlockReason;
  /** True for a cloud metadata endpoint (never allowed). */
  metadata: boolean;
}

/** The IPv4 address an IPv6 address stands for (mapped, SIIT, NAT64, 6to4, compatible), if any. */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const b = ip.toByteArray();
  const v4 = (at: number): ipaddr.IPv4 => new ipaddr.IPv4(b.slice(at, at + 4));
  switch (ip.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return v4(12);
    case '6to4':
      return v4(2);
    default:
      // ::a.b.c.d (deprecated IPv4-compatible), but not :: and ::1.
      return b.slice(0, 12).every((x) => x === 0) && !(b.slice(12, 15).every((x) => x === 0) && (b[15] ?? 0) <= 1) ? v4(12) : undefined;
  }
}

function isMetadata(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return METADATA.some((m) => {
    const p = ipaddr.parse(m);
    return p.kind() === ip.kind() && p.toNormalizedString() === ip.toNormalizedString();
  });
}

function classifyV4(ip: ipaddr.IPv4): AddressVerdict {
  const extra = ipaddr.subnetMatch(ip, V4_EXTRA, 'none');
  const blocked = extra !== 'none' ? (extra as BlockReason) : V4_RANGES[ip.range()];
  return { address: ip.toString(), family: 4, metadata: isMetadata(ip), ...(blocked === undefined ? {} : { blocked }) };
}

/** Classify an IP literal (without brackets). Undefined when it is not an IP address. */
export function classifyAddress(input: string): AddressVerdict | undefined {
  const kind = isIP(input);
  if (kind === 0) return undefined;
  // A zone (fe80::1%eth0) does not change what the address is.
  const text = kind === 6 ? input.replace(/%.*$/, '') : input;
  if (!ipaddr.isValid(text)) return undefined;
  const ip = ipaddr.parse(text);
  if (ip instanceof ipaddr.IPv4) return classifyV4(ip);
  const v4 = embeddedIPv4(ip);
  if (v4 !== undefined) return classifyV4(v4);
  const extra = ipaddr.subnetMatch(ip, V6_EXTRA, 'none');
  const blocked = extra !== 'none' ? (extra as BlockReason) : V6_RANGES[ip.range()];
  return { address: ip.toString(), family: 6, metadata: isMetadata(ip), ...(blocked === undefined ? {} : { blocked }) };
}
