// CIDR keys, matched by longest prefix, IPv4 and IPv6, in a compact form: for every prefix length present,
// a sorted typed array of network addresses (one 32-bit word per IPv4 network, four per IPv6 network) and the
// row each one belongs to. A lookup masks the address to each present length, longest first, and binary
// searches that length's networks; the first hit is the longest prefix. A million IPv4 networks hold about
// 8 MB here (no object per network).

/** An IPv4 address as an unsigned 32-bit number, or undefined when the text is not one. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value >>> 0;
}

/** An IPv6 address as four unsigned 32-bit words (an embedded IPv4 tail accepted), or undefined. */
export function parseIPv6(text: string): Uint32Array | undefined {
  let body = text;
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  if (!body.includes(':')) return undefined;
  const groups: number[] = [];
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const parseHalf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    const pieces = half.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (v4 === undefined) return undefined;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const head = parseHalf(halves[0]);
  const tail = halves.length === 2 ? parseHalf(halves[1]) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 2) {
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return undefined;
    groups.push(...head, ...new Array<number>(missing).fill(0), ...tail);
  } else {
    if (head.length !== 8) return undefined;
    groups.push(...head);
  }
  const words = new Uint32Array(4);
  for (let i = 0; i < 4; i++) words[i] = ((groups[2 * i] << 16) | groups[2 * i + 1]) >>> 0;
  return words;
}

export type ParsedCidr = { version: 4; network: number; bits: number } | { version: 6; network: Uint32Array; bits: number };

const maskV4 = (bits: number) => (bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0);

function maskV6Into(address: Uint32Array, bits: number, out: Uint32Array): void {
  for (let i = 0; i < 4; i++) {
    const wordBits = Math.max(0, Math.min(32, bits - 32 * i));
    out[i] = (address[i] & maskV4(wordBits)) >>> 0;
  }
}

/**
 * A CIDR (`10.0.0.0/8`, `2001:db8::/32`) or a bare address (a /32 or /128). Host bits are cleared, as a
 * network is meant. Undefined when the text is neither.
 */
export function parseCidr(text: string): ParsedCidr | undefined {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const address = slash >= 0 ? trimmed.slice(0, slash) : trimmed;
  const bitsText = slash >= 0 ? trimmed.slice(slash + 1) : undefined;
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) return undefined;
  const v4 = parseIPv4(address);
  if (v4 !== undefined) {
    const bits = bitsText === undefined ? 32 : Number(bitsText);
    if (bits > 32) return undefined;
    return { version: 4, network: (v4 & maskV4(bits)) >>> 0, bits };
  }
  const v6 = parseIPv6(address);
  if (v6 !== undefined) {
    const bits = bitsText === undefined ? 128 : Number(bitsText);
    if (bits > 128) return undefined;
    const network = new Uint32Array(4);
    maskV6Into(v6, bits, network);
    return { version: 6, network, bits };
  }
  return undefined;
}

/** An IPv4 address written as IPv6 (`::ffff:a.b.c.d`), as its IPv4 number; otherwise undefined. */
function mappedV4(words: Uint32Array): number | undefined {
  return words[0] === 0 && words[1] === 0 && words[2] === 0xffff ? words[3] : undefined;
}

/**
 * Whether an address is in a network (`contains(network, address)` of Athena's SQL): undefined when the
 * address is not an IP address (or the network not a CIDR); an IPv4 address written as IPv6 (`::ffff:a.b.c.d`)
 * is the IPv4 address; an address of the other family is not in the network.
 */
export function ipInCidr(address: string, cidr: string): boolean | undefined {
  const net = parseCidr(cidr);
  const text = address.trim();
  let v4 = parseIPv4(text);
  const v6 = v4 === undefined ? parseIPv6(text) : undefined;
  if (v4 === undefined && v6 === undefined) return undefined;
  if (!net) return undefined;
  if (v6 && net.version === 4) v4 = mappedV4(v6);
  if (net.version === 4) return v4 !== undefined && (v4 & maskV4(net.bits)) >>> 0 === net.network;
  if (!v6) return false;
  const masked = new Uint32Array(4);
  maskV6Into(v6, net.bits, masked);
  return masked.every((w, i) => w === net.network[i]);
}

/** The address in its usual text (IPv4 dotted, IPv6 as written, lower case), or undefined when not an address. */
export function ipAddressText(value: string): string | undefined {
  const text = value.trim();
  if (parseIPv4(text) !== undefined) return text;
  return parseIPv6(text) ? text.toLowerCase() : undefined;
}

interface V4Level {
  bits: number;
  mask: number;
  networks: Uint32Array;
  rows: Int32Array;
}

interface V6Level {
  bits: number;
  networks: Uint32Array; // 4 words per network
  rows: Int32Array;
}

function compareV6(words: Uint32Array, at: number, key: Uint32Array): number {
  for (let i = 0; i < 4; i++) {
    const a = words[at * 4 + i];
    const b = key[i];
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** Networks to rows; built once from (cidr, row) pairs, then read-only. A later duplicate network wins. */
export class CidrIndex {
  private readonly v4: V4Level[];
  private readonly v6: V6Level[];
  private readonly scratch = new Uint32Array(4);
  readonly size: number;

  constructor(entries: Iterable<[ParsedCidr, number]>) {
    const v4ByBits = new Map<number, { networks: number[]; rows: number[] }>();
    const v6ByBits = new Map<number, { networks: Uint32Array[]; rows: number[] }>();
    for (const [cidr, row] of entries) {
      if (cidr.version === 4) {
        let level = v4ByBits.get(cidr.bits);
        if (!level) v4ByBits.set(cidr.bits, (level = { networks: [], rows: [] }));
        level.networks.push(cidr.network);
        level.rows.push(row);
      } else {
        let level = v6ByBits.get(cidr.bits);
        if (!level) v6ByBits.set(cidr.bits, (level = { networks: [], rows: [] }));
        level.networks.push(cidr.network);
        level.rows.push(row);
      }
    }
    this.v4 = [...v4ByBits.entries()]
      .sort((a, b) => b[0] - a[0])
      .map(([bits, level]) => {
        const order = level.networks.map((_, i) => i).sort((a, b) => level.networks[a] - level.networks[b] || a - b);
        const networks: number[] = [];
        const rows: number[] = [];
        for (const i of order) {
          // equal networks: the later entry replaces the earlier one
          if (networks.length && networks[networks.length - 1] === level.networks[i]) rows[rows.length - 1] = level.rows[i];
          else {
            networks.push(level.networks[i]);
            rows.push(level.rows[i]);
          }
        }
        return { bits, mask: maskV4(bits), networks: Uint32Array.from(networks), rows: Int32Array.from(rows) };
      });
    this.v6 = [...v6ByBits.entries()]
      .sort((a, b) => b[0] - a[0])
      .map(([bits, level]) => {
        const cmp = (a: Uint32Array, b: Uint32Array) => {
          for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
          return 0;
        };
        const order = level.networks.map((_, i) => i).sort((a, b) => cmp(level.networks[a], level.networks[b]) || a - b);
        const kept: number[] = [];
        const rows: number[] = [];
        for (const i of order) {
          if (kept.length && cmp(level.networks[kept[kept.length - 1]], level.networks[i]) === 0)
            rows[rows.length - 1] = level.rows[i];
          else {
            kept.push(i);
            rows.push(level.rows[i]);
          }
        }
        const networks = new Uint32Array(kept.length * 4);
        kept.forEach((i, at) => networks.set(level.networks[i], at * 4));
        return { bits, networks, rows: Int32Array.from(rows) };
      });
    this.size =
      this.v4.reduce((sum, level) => sum + level.rows.length, 0) + this.v6.reduce((sum, level) => sum + level.rows.length, 0);
  }

  /** The row of the longest prefix holding the address (text), or -1 (no match, or not an address). */
  match(address: string): number {
    const v4 = parseIPv4(address);
    if (v4 !== undefined) return this.matchV4(v4);
    const v6 = parseIPv6(address);
    if (v6 !== undefined) {
      // an IPv4-mapped IPv6 address (::ffff:a.b.c.d) also matches IPv4 networks
      const row = this.matchV6(v6);
      if (row >= 0) return row;
      if (v6[0] === 0 && v6[1] === 0 && v6[2] === 0xffff) return this.matchV4(v6[3]);
      return -1;
    }
    return -1;
  }

  matchV4(address: number): number {
    for (const level of this.v4) {
      const key = (address & level.mask) >>> 0;
      const networks = level.networks;
      let lo = 0;
      let hi = networks.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const value = networks[mid];
        if (value === key) return level.rows[mid];
        if (value < key) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    return -1;
  }

  matchV6(address: Uint32Array): number {
    const key = this.scratch;
    for (const level of this.v6) {
      maskV6Into(address, level.bits, key);
      let lo = 0;
      let hi = level.rows.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const c = compareV6(level.networks, mid, key);
        if (c === 0) return level.rows[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    return -1;
  }

  /** Bytes held by the typed arrays. */
  get byteLength(): number {
    let bytes = 0;
    for (const level of this.v4) bytes += level.networks.byteLength + level.rows.byteLength;
    for (const level of this.v6) bytes += level.networks.byteLength + level.rows.byteLength;
    return bytes;
  }
}
