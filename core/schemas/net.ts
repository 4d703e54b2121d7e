// IP address and CIDR recognition for `validate` and indicators.

/** Dotted-quad IPv4: four decimal parts of 0-255 without leading zeros (`0` itself allowed), ASCII digits.
 * Read character by character: this runs for every indicator value of an `ip`, `domain` or `hostname` field. */
export function isIPv4(text: string): boolean {
  const n = text.length;
  if (n < 7 || n > 15) return false;
  let i = 0;
  for (let part = 1; ; part++) {
    const start = i;
    let value = 0;
    while (i < n && i - start < 4) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      value = value * 10 + c;
      i++;
    }
    const digits = i - start;
    if (digits === 0 || digits > 3 || value > 255 || (digits > 1 && text.charCodeAt(start) === 48)) return false;
    if (i === n) return part === 4;
    if (part === 4 || text.charCodeAt(i) !== 46) return false;
    i++;
  }
}

export function isIPv6(text: string): boolean {
  if (text.length < 2 || text.length > 45 || text.indexOf(':') < 0) return false;
  let body = text;
  const zone = body.indexOf('%');
  if (zone >= 0) body = body.slice(0, zone);
  let groupsNeeded = 8;
  const lastColon = body.lastIndexOf(':');
  const tail = body.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    body = body.slice(0, lastColon + 1) + '0';
    groupsNeeded = 7;
  }
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const group = /^[0-9a-fA-F]{1,4}$/;
  const parts = (s: string) => (s === '' ? [] : s.split(':'));
  const left = parts(halves[0]);
  const right = halves.length === 2 ? parts(halves[1]) : [];
  if (![...left, ...right].every((g) => group.test(g))) return false;
  const count = left.length + right.length;
  return halves.length === 2 ? count < groupsNeeded : count === groupsNeeded;
}

export function isIP(text: string): boolean {
  return isIPv4(text) || isIPv6(text);
}

export function isCIDR(text: string, version: 'ipv4' | 'ipv6' | 'any'): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const addr = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  const n = Number(bits);
  if (version !== 'ipv6' && isIPv4(addr)) return n <= 32;
  if (version !== 'ipv4' && isIPv6(addr)) return n <= 128;
  return false;
}

export function matchesIpVersion(text: string, version: 'ipv4' | 'ipv6' | 'any'): boolean {
  if (version === 'ipv4') return isIPv4(text);
  if (version === 'ipv6') return isIPv6(text);
  return isIP(text);
}
