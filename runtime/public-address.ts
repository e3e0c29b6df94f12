import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * The rule of ARCHITECTURE "private addresses": webhook, feed and review URLs
 * that lead to loopback or private ranges are refused, so a user cannot make
 * the service read or post to its own network. `EARSHOT_ALLOW_PRIVATE_URLS=1`
 * lifts it (tests, fake upstreams on 127.0.0.1).
 */
export class PrivateAddressError extends Error {
  constructor(readonly url: string, reason: string) {
    super(`${url} is refused: ${reason}`);
  }
}

/** Resolves a host name to every address it has, as `dns.lookup(host, { all: true })` does. */
export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface PublicAddressOptions {
  env?: NodeJS.ProcessEnv;
  lookup?: HostLookup;
}

export const privateUrlsAllowed = (env: NodeJS.ProcessEnv = process.env) => env.EARSHOT_ALLOW_PRIVATE_URLS === '1';

function ipv4Octets(address: string): number[] {
  return address.split('.').map(Number);
}

/**
 * IPv4 ranges no public host answers on (IANA's special-purpose registry,
 * not globally reachable): private, loopback, link-local, this network,
 * the carriers' shared space (100.64/10, where some clouds keep their
 * metadata service), the IETF's own and benchmarking blocks, multicast and
 * the reserved rest up to broadcast.
 */
function isPrivateIpv4(address: string): boolean {
  const [a, b, c] = ipv4Octets(address);
  return a === 10 || a === 127 || a === 0
    || (a === 172 && b >= 16 && b <= 31)
    || (a === 192 && b === 168)
    || (a === 169 && b === 254)
    || (a === 100 && b >= 64 && b <= 127)
    || (a === 192 && b === 0 && c === 0)
    || (a === 198 && (b === 18 || b === 19))
    || a >= 224;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The 16-bit groups of an IPv6 address, `::` expanded and a dotted IPv4 tail folded in. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Octets(dotted[1]);
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const zeros = tail === undefined ? [] : new Array(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}

/** Whether an IP address (v4 or v6 text) is loopback, private, link-local or unspecified. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPrivateIpv4(address);
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  const leadingZeros = groups.slice(0, 5).every((group) => group === 0);
  // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d, so it takes that host's verdict.
  if (leadingZeros && groups[5] === 0xffff) return isPrivateIpv4(ipv4Of(groups[6], groups[7]));
  if (leadingZeros && groups[5] === 0 && groups[6] === 0 && groups[7] <= 1) return true; // :: and ::1
  // So do the translation prefixes that carry an IPv4 host: NAT64 64:ff9b::a.b.c.d and 6to4 2002:AABB:CCDD::.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) return isPrivateIpv4(ipv4Of(groups[6], groups[7]));
  if (groups[0] === 0x2002) return isPrivateIpv4(ipv4Of(groups[1], groups[2]));
  // Unique local, link-local, multicast.
  return (groups[0] & 0xfe00) === 0xfc00 || (groups[0] & 0xffc0) === 0xfe80 || (groups[0] & 0xff00) === 0xff00;
}

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Throws `PrivateAddressError` unless `url` is http(s) and every address its
 * host resolves to is public. Checked per request (and per redirect hop) by
 * the caller; a host that re-resolves between this check and the connection
 * is not caught here. A name that does not resolve rejects with the lookup's
 * own error, which is the caller's to judge (passing fault or bad address).
 */
export async function assertPublicHttpUrl(url: string | URL, options: PublicAddressOptions = {}): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new PrivateAddressError(parsed.href, 'only http and https addresses are read');
  }
  if (privateUrlsAllowed(options.env)) return;
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(hostname) ? [{ address: hostname }] : await (options.lookup ?? defaultLookup)(hostname);
  const hidden = addresses.find(({ address }) => isPrivateAddress(address));
  if (hidden) throw new PrivateAddressError(parsed.href, `host ${hostname} is a private or loopback address (${hidden.address})`);
}
