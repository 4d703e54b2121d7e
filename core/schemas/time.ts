// Timestamps: the built-in formats and strftime formats, all normalised to UTC.
// A parsed time is whole seconds since the epoch plus nanoseconds, so unix_ns and 9-digit fractions keep
// their precision; it is written out as `YYYY-MM-DD HH:MM:SS.nnnnnnnnn` (UTC), the lake's timestamp form.
import { BUILTIN_TIME_FORMATS } from './types';

export interface Instant {
  s: number;
  ns: number;
}

export type TimeParser = (value: unknown, reference: Instant) => Instant | null;

const MIN_S = -62135596800; // 0001-01-01
const MAX_S = 253402300799; // 9999-12-31 23:59:59

function instant(s: number, ns: number): Instant | null {
  if (!Number.isFinite(s) || s < MIN_S || s > MAX_S) return null;
  return { s, ns };
}

function two(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function formatInstant(t: Instant): string {
  const days = Math.floor(t.s / 86400);
  const secs = t.s - days * 86400;
  // civil_from_days
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const h = Math.floor(secs / 3600);
  const mi = Math.floor((secs % 3600) / 60);
  const sec = secs % 60;
  const ns = t.ns === 0 ? '000000000' : String(t.ns).padStart(9, '0');
  return `${String(y).padStart(4, '0')}-${two(m)}-${two(d)} ${two(h)}:${two(mi)}:${two(sec)}.${ns}`;
}

export function instantFromMillis(ms: number): Instant {
  const s = Math.floor(ms / 1000);
  return { s, ns: (ms - s * 1000) * 1_000_000 };
}

export function compareInstants(a: Instant, b: Instant): number {
  return a.s - b.s || a.ns - b.ns;
}

function fractionToNanos(digits: string | undefined): number {
  if (!digits) return 0;
  return Number((digits + '00000000').slice(0, 9));
}

/** Seconds since the epoch of a UTC calendar time, or NaN when a part is out of range. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function civil(y: number, mo: number, d: number, h: number, mi: number, sec: number): number {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 60) return NaN;
  const leap = mo === 2 && ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0);
  if (d > MONTH_DAYS[mo - 1] + (leap ? 1 : 0)) return NaN;
  return daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + Math.min(sec, 59);
}

function zoneOffsetSeconds(zone: string | undefined): number {
  if (!zone || zone === 'Z' || zone === 'z' || zone === 'UTC') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || '0') * 60);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;

function digits(text: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** The common shapes `YYYY-MM-DDTHH:MM:SS[.f…][Z|±HH:MM]` read without a regular expression. */
function parseRfc3339Fast(text: string): Instant | null | undefined {
  const n = text.length;
  if (
    n < 19 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  )
    return undefined;
  const sep = text.charCodeAt(10);
  if (sep !== 84 && sep !== 32 && sep !== 116) return undefined;
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const sec = digits(text, 17, 2);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return undefined;
  let i = 19;
  let ns = 0;
  if (i < n && (text.charCodeAt(i) === 46 || text.charCodeAt(i) === 44)) {
    let scale = 100_000_000;
    i++;
    const start = i;
    for (; i < n; i++) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      ns += c * scale;
      scale = Math.floor(scale / 10);
    }
    if (i === start) return undefined;
  }
  let offset = 0;
  if (i < n) {
    const c = text.charCodeAt(i);
    if ((c === 90 || c === 122) && i === n - 1) offset = 0;
    else if ((c === 43 || c === 45) && (n - i === 6 || n - i === 5)) {
      const oh = digits(text, i + 1, 2);
      const om = digits(text, n - 2, 2);
      if (oh < 0 || om < 0 || (n - i === 6 && text.charCodeAt(i + 3) !== 58)) return undefined;
      offset = (c === 45 ? -1 : 1) * (oh * 3600 + om * 60);
    } else return undefined;
  }
  const s = civil(y, mo, d, h, mi, sec);
  if (Number.isNaN(s)) return null;
  return instant(s - offset, ns);
}

/**
 * The text formatInstant writes for `text`, taken from the text itself when it is already UTC in the canonical
 * shape `YYYY-MM-DD[Tt ]HH:MM:SS[.f…][Zz]` (a leap second excepted: it is written as :59); null otherwise.
 * Only for a text parseRfc3339 has read (that checks every digit and range): the result is then the same
 * as formatInstant(parseRfc3339(text)), without the calendar arithmetic.
 */
export function canonicalUtcText(text: string): string | null {
  const n = text.length;
  if (n < 20) return null;
  const last = text.charCodeAt(n - 1);
  if (last !== 90 && last !== 122) return null;
  if (text.charCodeAt(17) === 54 && text.charCodeAt(18) === 48) return null; // :60
  const head = text.slice(0, 10) + ' ' + text.slice(11, 19) + '.';
  if (n === 20) return head + '000000000';
  const mark = text.charCodeAt(19);
  if ((mark !== 46 && mark !== 44) || n === 21) return null;
  for (let i = 20; i < n - 1; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  const fraction = text.slice(20, n - 1);
  return head + (fraction.length >= 9 ? fraction.slice(0, 9) : fraction + '000000000'.slice(fraction.length));
}

export function parseRfc3339(text: string): Instant | null {
  const fast = parseRfc3339Fast(text);
  if (fast !== undefined) return fast;
  const m = RFC3339.exec(text);
  if (!m) return null;
  const s = civil(+m[1], +m[2], +m[3], +m[4], +m[5], +m[6]);
  if (Number.isNaN(s)) return null;
  return instant(s - zoneOffsetSeconds(m[8]), fractionToNanos(m[7]));
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A unix time in units of 10^-scale seconds (0 seconds, 3 ms, 6 µs, 9 ns), from a number or a decimal string. */
function parseUnix(value: unknown, scale: number): Instant | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = Number.isInteger(value) ? value.toFixed(0) : String(value);
    if (/e/i.test(text)) text = value.toFixed(9);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const whole = m[2].replace(/^0+(?=\d)/, '');
  const shifted = whole.length > scale ? whole.slice(0, whole.length - scale) : '0';
  const subDigits = (whole.length > scale ? whole.slice(whole.length - scale) : whole.padStart(scale, '0')) + (m[3] ?? '');
  let s = Number(shifted);
  let ns = fractionToNanos(subDigits);
  if (m[1] === '-') {
    s = -s;
    if (ns > 0) {
      s -= 1;
      ns = 1_000_000_000 - ns;
    }
  }
  return instant(s, ns);
}

function unixAutoScale(value: unknown): number {
  const n = Math.abs(typeof value === 'number' ? value : Number(value));
  if (n < 1e11) return 0;
  if (n < 1e14) return 3;
  if (n < 1e17) return 6;
  return 9;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ZONES: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  EST: -5,
  EDT: -4,
  CST: -6,
  CDT: -5,
  MST: -7,
  MDT: -6,
  PST: -8,
  PDT: -7,
  CET: 1,
  CEST: 2,
};

interface StrftimeParts {
  y?: number;
  y2?: number;
  mo?: number;
  d?: number;
  h?: number;
  h12?: number;
  pm?: boolean;
  mi?: number;
  sec?: number;
  frac?: string;
  zone?: number;
  epoch?: number;
  yday?: number;
}

type Setter = (parts: StrftimeParts, text: string) => boolean;

interface Directive {
  re: string;
  set?: Setter;
}

const num =
  (key: keyof StrftimeParts): Setter =>
  (p, t) => {
    (p as Record<string, number>)[key] = Number(t);
    return true;
  };

const DIRECTIVES: Record<string, Directive> = {
  Y: { re: '(\\d{4})', set: num('y') },
  y: { re: '(\\d{2})', set: num('y2') },
  m: { re: '(\\d{1,2})', set: num('mo') },
  d: { re: '(\\d{1,2})', set: num('d') },
  e: { re: '\\s?(\\d{1,2})', set: num('d') },
  j: { re: '(\\d{1,3})', set: num('yday') },
  H: { re: '(\\d{1,2})', set: num('h') },
  k: { re: '\\s?(\\d{1,2})', set: num('h') },
  I: { re: '(\\d{1,2})', set: num('h12') },
  l: { re: '\\s?(\\d{1,2})', set: num('h12') },
  M: { re: '(\\d{2})', set: num('mi') },
  S: { re: '(\\d{2})', set: num('sec') },
  f: { re: '(\\d{1,9})', set: (p, t) => ((p.frac = t), true) },
  L: { re: '(\\d{3})', set: (p, t) => ((p.frac = t), true) },
  N: { re: '(\\d{9})', set: (p, t) => ((p.frac = t), true) },
  p: { re: '([AaPp][Mm])', set: (p, t) => ((p.pm = t.toLowerCase() === 'pm'), true) },
  b: { re: '([A-Za-z]{3})', set: (p, t) => setMonth(p, t) },
  h: { re: '([A-Za-z]{3})', set: (p, t) => setMonth(p, t) },
  B: { re: '([A-Za-z]{3,9})', set: (p, t) => setMonth(p, t) },
  a: { re: '[A-Za-z]{3}' },
  A: { re: '[A-Za-z]{6,9}' },
  z: {
    re: '(Z|[+-]\\d{2}:?\\d{2})',
    set: (p, t) => ((p.zone = zoneOffsetSeconds(t)), true),
  },
  Z: {
    re: '([A-Za-z]{1,5}|[+-]\\d{2}:?\\d{2})',
    set: (p, t) => {
      if (t[0] === '+' || t[0] === '-') return ((p.zone = zoneOffsetSeconds(t)), true);
      const hours = ZONES[t.toUpperCase()];
      if (hours === undefined) return false;
      p.zone = hours * 3600;
      return true;
    },
  },
  s: { re: '(-?\\d+)', set: num('epoch') },
  n: { re: '\\s+' },
  t: { re: '\\s+' },
  '%': { re: '%' },
};

const EXPANSIONS: Record<string, string> = { T: '%H:%M:%S', D: '%m/%d/%y', F: '%Y-%m-%d', R: '%H:%M', c: '%a %b %e %H:%M:%S %Y' };

function setMonth(p: StrftimeParts, text: string): boolean {
  const i = MONTHS.indexOf(text.slice(0, 3).toLowerCase());
  if (i < 0) return false;
  p.mo = i + 1;
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Unknown strftime directives, so validation can name them. */
export function strftimeProblems(format: string): string[] {
  const problems: string[] = [];
  const expanded = format.replace(/%([TDFRc])/g, (_, c: string) => EXPANSIONS[c]);
  for (const m of expanded.matchAll(/%(.?)/g)) {
    if (!DIRECTIVES[m[1]]) problems.push(`unknown directive %${m[1]}`);
  }
  return problems;
}

export function compileStrftime(format: string): TimeParser {
  const expanded = format.replace(/%([TDFRc])/g, (_, c: string) => EXPANSIONS[c]);
  const setters: Setter[] = [];
  let re = '';
  let last = 0;
  for (const m of expanded.matchAll(/%(.?)/g)) {
    re += escapeRegExp(expanded.slice(last, m.index)).replace(/ +/g, '\\s+');
    const directive = DIRECTIVES[m[1]];
    if (!directive) throw new Error(`unknown strftime directive %${m[1]} in "${format}"`);
    re += directive.re;
    if (directive.set) setters.push(directive.set);
    last = (m.index ?? 0) + m[0].length;
  }
  re += escapeRegExp(expanded.slice(last)).replace(/ +/g, '\\s+');
  const pattern = new RegExp(`^\\s*${re}\\s*$`);
  return (value, reference) => {
    if (typeof value !== 'string') {
      if (typeof value !== 'number') return null;
      value = String(value);
    }
    const m = pattern.exec(value as string);
    if (!m) return null;
    const p: StrftimeParts = {};
    for (let i = 0; i < setters.length; i++) if (!setters[i](p, m[i + 1])) return null;
    if (p.epoch !== undefined) return instant(p.epoch, fractionToNanos(p.frac));
    let h = p.h ?? 0;
    if (p.h12 !== undefined) h = (p.h12 % 12) + (p.pm ? 12 : 0);
    const zone = p.zone ?? 0;
    let y = p.y ?? (p.y2 !== undefined ? (p.y2 < 69 ? 2000 + p.y2 : 1900 + p.y2) : undefined);
    const yearKnown = y !== undefined;
    if (y === undefined) y = new Date(reference.s * 1000).getUTCFullYear();
    let mo = p.mo ?? 1;
    let d = p.d ?? 1;
    if (p.yday !== undefined) {
      const date = new Date(Date.UTC(y, 0, p.yday));
      mo = date.getUTCMonth() + 1;
      d = date.getUTCDate();
    }
    let s = civil(y, mo, d, h, p.mi ?? 0, p.sec ?? 0);
    if (Number.isNaN(s)) return null;
    s -= zone;
    // A time without a year (syslog) belongs to the most recent year that does not put it in the future.
    if (!yearKnown && s > reference.s + 86400) s = civil(y - 1, mo, d, h, p.mi ?? 0, p.sec ?? 0) - zone;
    return instant(s, fractionToNanos(p.frac));
  };
}

export function isBuiltinTimeFormat(format: string): boolean {
  return (BUILTIN_TIME_FORMATS as readonly string[]).includes(format);
}

export function compileTimeFormat(format: string): TimeParser {
  switch (format) {
    case 'rfc3339':
      return (v) => (typeof v === 'string' ? parseRfc3339(v) : null);
    case 'unix':
      return (v) => parseUnix(v, 0);
    case 'unix_ms':
      return (v) => parseUnix(v, 3);
    case 'unix_us':
      return (v) => parseUnix(v, 6);
    case 'unix_ns':
      return (v) => parseUnix(v, 9);
    case 'unix_auto':
      return (v) => parseUnix(v, unixAutoScale(v));
    case 'cloudflare':
      return (v) =>
        typeof v === 'number' || (typeof v === 'string' && DECIMAL.test(v.trim()))
          ? parseUnix(v, unixAutoScale(v))
          : typeof v === 'string'
            ? parseRfc3339(v)
            : null;
    default:
      return compileStrftime(format);
  }
}

/** Tries each format in order; the first that reads the value wins. */
export function compileTimeFormats(formats: string[]): TimeParser {
  const parsers = formats.map(compileTimeFormat);
  if (parsers.length === 1) return parsers[0];
  return (value, reference) => {
    for (const parse of parsers) {
      const t = parse(value, reference);
      if (t) return t;
    }
    return null;
  };
}
