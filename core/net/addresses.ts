// Which network addresses Caracal refuses to send to: one rule for the outbound client, which checks every address
// a destination's host resolves to when it sends (functions/lib/net/outbound.ts), and for the destination forms
// and the API, which refuse a URL naming such an address when it is saved (core/destinations/validation.ts).
// Plain TypeScript (no node: modules): the web app runs it too.
// - Refused always: link-local and cloud metadata addresses (169.254.0.0/16, fd00:ec2::254, 100.100.100.200,
//   fe80::/10), "this network" 0.0.0.0/8, multicast, reserved and unspecified addresses, and IPv4 hidden in IPv6
//   forms (IPv4-mapped ::ffff:a9fe:a9fe, NAT64 64:ff9b::/96, IPv4-compatible ::a.b.c.d).
// - Refused unless the deployment allows private networks (the local runtime): loopback and private ranges.
// A URL's host is read as browsers and Node read it (WHATWG URL): 2852039166, 0xa9fea9fe, 0251.0376.0251.0376,
// 0xa9.0xfe.0xa9.0xfe and 169.254.43518 all name 169.254.169.254, and are refused like it.

/** An address as 16 bytes (IPv4 as IPv4-mapped IPv6), or null when it is not an IP address. */
export function addressBytes(address: string): number[] | null {
  const v4 = ipv4Bytes(address);
  if (v4) return [...Array(10).fill(0), 0xff, 0xff, ...v4];
  if (!address.includes(':')) return null;
  let text = address.split('%')[0].toLowerCase();
  // A trailing dotted quad is the last two groups.
  const dotted = /^(.*:)([^:]+\.[^:]+)$/.exec(text);
  if (dotted) {
    const quad = ipv4Bytes(dotted[2]);
    if (!quad) return null;
    text = `${dotted[1]}${((quad[0] << 8) | quad[1]).toString(16)}:${((quad[2] << 8) | quad[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) =>
    part ? part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : Number.NaN)) : [];
  const left = parse(halves[0]);
  const right = halves.length === 2 ? parse(halves[1]) : [];
  const fill = halves.length === 2 ? 8 - left.length - right.length : 0;
  if (fill < (halves.length === 2 ? 1 : 0)) return null;
  const groups = [...left, ...Array(fill).fill(0), ...right];
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return null;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** Dotted-quad IPv4 (decimal, no leading zeros) as 4 bytes, or null. */
function ipv4Bytes(text: string): number[] | null {
  if (!/^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/.test(text)) return null;
  const bytes = text.split('.').map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/**
 * A host as the WHATWG URL parser reads an IPv4 host: one to four parts, each decimal, octal (leading 0) or
 * hexadecimal (0x), the last filling the remaining bytes (`2852039166`, `169.254.43518`, `0251.0376.0251.0376`);
 * null when it is not such a host. A URL's `hostname` already is dotted decimal; this reads hosts given otherwise.
 */
export function ipv4HostBytes(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 1 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9]\d*)$/.test(part)) value = Number(part);
    else return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, i) => (value += n * 256 ** (3 - i)));
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

interface Range {
  readonly bytes: number[];
  readonly bits: number;
  readonly what: string;
}

function range(cidr: string, what: string): Range {
  const [address, bits] = cidr.split('/');
  const bytes = addressBytes(address);
  if (!bytes) throw new Error(`not a range: ${cidr}`);
  // IPv4 ranges are written as IPv4; their prefix counts within the mapped form.
  return { bytes, bits: ipv4Bytes(address) ? 96 + Number(bits) : Number(bits), what };
}

function inRange(bytes: readonly number[], r: Range): boolean {
  for (let bit = 0; bit < r.bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((bytes[bit >> 3] & mask) !== (r.bytes[bit >> 3] & mask)) return false;
  }
  return true;
}

const ALWAYS_REFUSED: Range[] = [
  range('169.254.0.0/16', 'a link-local address (cloud metadata)'),
  range('100.100.100.200/32', 'a cloud metadata address'),
  range('0.0.0.0/8', 'a "this network" address'),
  range('192.0.0.0/24', 'an IETF protocol address'),
  range('224.0.0.0/4', 'a multicast address'),
  range('240.0.0.0/4', 'a reserved address'),
  range('fd00:ec2::254/128', 'a cloud metadata address'),
  range('fe80::/10', 'a link-local address'),
  range('ff00::/8', 'a multicast address'),
  range('::/128', 'the unspecified address'),
];

const PRIVATE: Range[] = [
  range('127.0.0.0/8', 'a loopback address'),
  range('::1/128', 'a loopback address'),
  range('10.0.0.0/8', 'a private address'),
  range('172.16.0.0/12', 'a private address'),
  range('192.168.0.0/16', 'a private address'),
  range('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  range('198.18.0.0/15', 'a benchmarking address'),
  range('fc00::/7', 'a private address'),
];

const NAT64 = range('64:ff9b::/96', 'NAT64');
/** Deprecated IPv4-compatible addresses (::a.b.c.d), judged after loopback ::1, which they contain. */
const IPV4_COMPATIBLE = range('::/96', 'an IPv4-compatible address');

function refusedBytes(address: number[], allowPrivateNetworks: boolean): string | null {
  let bytes = address;
  // IPv4 inside IPv6 (NAT64) is judged as the IPv4 address it carries; IPv4-mapped addresses already are.
  if (inRange(bytes, NAT64)) bytes = [...Array(10).fill(0), 0xff, 0xff, ...bytes.slice(12)];
  for (const r of ALWAYS_REFUSED) if (inRange(bytes, r)) return r.what;
  for (const r of PRIVATE) if (inRange(bytes, r)) return allowPrivateNetworks ? null : r.what;
  return inRange(bytes, IPV4_COMPATIBLE) ? IPV4_COMPATIBLE.what : null;
}

/** Why Caracal refuses to connect to `address` (an IP address), or null when it may. */
export function refusedAddress(address: string, allowPrivateNetworks = false): string | null {
  const bytes = addressBytes(address);
  return bytes ? refusedBytes(bytes, allowPrivateNetworks) : 'not an IP address';
}

/**
 * Why a URL's host is refused wherever Caracal runs, or null: an IP address of the always-refused ranges, in
 * any of its encodings (a bracketed IPv6 host, IPv4 as one number, octal or hexadecimal parts). A host name is
 * not judged here (it is checked by the addresses it resolves to, when sending), nor are loopback and private
 * addresses, which a deployment may allow.
 */
export function refusedHost(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const v4 = ipv4HostBytes(bare);
  const bytes = v4 ? [...Array(10).fill(0), 0xff, 0xff, ...v4] : addressBytes(bare);
  return bytes ? refusedBytes(bytes, true) : null;
}
