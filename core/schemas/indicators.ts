// Indicators: values of fields marked with `indicators` collected into the standard p_any_* arrays.
import { isIP } from './net';
import type { Indicator } from './types';

export const INDICATOR_FIELDS = [
  'p_any_ip_addresses',
  'p_any_domain_names',
  'p_any_emails',
  'p_any_usernames',
  'p_any_md5_hashes',
  'p_any_sha1_hashes',
  'p_any_sha256_hashes',
  'p_any_trace_ids',
  'p_any_aws_account_ids',
  'p_any_aws_instance_ids',
  'p_any_aws_arns',
  'p_any_aws_tags',
  'p_any_mac_addresses',
  'p_any_actor_ids',
  'p_any_serial_numbers',
] as const;
export type IndicatorField = (typeof INDICATOR_FIELDS)[number];

const IP = 0;
const DOMAIN = 1;
const EMAIL = 2;
const USERNAME = 3;
const MD5 = 4;
const SHA1 = 5;
const SHA256 = 6;
const TRACE_ID = 7;
const ACCOUNT_ID = 8;
const INSTANCE_ID = 9;
const ARN = 10;
const TAG = 11;
const MAC = 12;
const ACTOR_ID = 13;
const SERIAL = 14;

/** Collected indicator values for one event, deduplicated, in the order first seen. */
export class IndicatorSet {
  // Slots by INDICATOR_FIELDS index; few values per event, so arrays with a linear duplicate check.
  private readonly slots: (string[] | undefined)[] = new Array(INDICATOR_FIELDS.length);
  private any = false;

  /** Empty again, for the next event (a parser keeps one set: its slots' arrays went to the event written). */
  clear(): void {
    if (!this.any) return;
    // A loop, not fill(): for fifteen slots the builtin's call costs more than the stores.
    const s = this.slots;
    for (let i = 0; i < s.length; i++) s[i] = undefined;
    this.any = false;
  }

  add(slot: number, value: string): void {
    const list = this.slots[slot];
    if (!list) this.slots[slot] = [value];
    else if (!list.includes(value)) list.push(value);
    this.any = true;
  }

  /** Writes the non-empty arrays onto the event, in the standard field order (named stores: this is hot). */
  writeTo(event: Record<string, unknown>): void {
    if (!this.any) return;
    const s = this.slots;
    if (s[IP]) event.p_any_ip_addresses = s[IP];
    if (s[DOMAIN]) event.p_any_domain_names = s[DOMAIN];
    if (s[EMAIL]) event.p_any_emails = s[EMAIL];
    if (s[USERNAME]) event.p_any_usernames = s[USERNAME];
    if (s[MD5]) event.p_any_md5_hashes = s[MD5];
    if (s[SHA1]) event.p_any_sha1_hashes = s[SHA1];
    if (s[SHA256]) event.p_any_sha256_hashes = s[SHA256];
    if (s[TRACE_ID]) event.p_any_trace_ids = s[TRACE_ID];
    if (s[ACCOUNT_ID]) event.p_any_aws_account_ids = s[ACCOUNT_ID];
    if (s[INSTANCE_ID]) event.p_any_aws_instance_ids = s[INSTANCE_ID];
    if (s[ARN]) event.p_any_aws_arns = s[ARN];
    if (s[TAG]) event.p_any_aws_tags = s[TAG];
    if (s[MAC]) event.p_any_mac_addresses = s[MAC];
    if (s[ACTOR_ID]) event.p_any_actor_ids = s[ACTOR_ID];
    if (s[SERIAL]) event.p_any_serial_numbers = s[SERIAL];
  }
}

const HEX = /^[0-9a-fA-F]+$/;
/** Twelve digits (an AWS account id), checked without a regular expression: this runs for every ARN. */
function isAccountId(v: string): boolean {
  if (v.length !== 12) return false;
  for (let i = 0; i < 12; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
const MAC_ADDRESS = /^[0-9a-fA-F]{2}([:-]?)[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){4}$/;
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+$/;
const DOMAIN_NAME = /^[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})?)*\.?$/;

function addHost(host: string, out: IndicatorSet): void {
  let h = host;
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (!h) return;
  if (isIP(h)) out.add(IP, h);
  else if (DOMAIN_NAME.test(h)) out.add(DOMAIN, h.toLowerCase().replace(/\.$/, ''));
}

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address. */
function addNetAddr(value: string, out: IndicatorSet): void {
  if (isIP(value)) return out.add(IP, value);
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return addHost(value.slice(1, end < 0 ? undefined : end), out);
  }
  const colon = value.lastIndexOf(':');
  addHost(colon > 0 && value.indexOf(':') === colon ? value.slice(0, colon) : value, out);
}

function addUrl(value: string, out: IndicatorSet): void {
  const scheme = value.indexOf('://');
  let rest = scheme >= 0 ? value.slice(scheme + 3) : value;
  const end = rest.search(/[/?#]/);
  if (end >= 0) rest = rest.slice(0, end);
  const at = rest.lastIndexOf('@');
  if (at >= 0) rest = rest.slice(at + 1);
  addNetAddr(rest, out);
}

export type IndicatorCollector = (value: string, out: IndicatorSet) => void;

const hash =
  (slot: number, length: number): IndicatorCollector =>
  (v, out) => {
    if (v.length === length && HEX.test(v)) out.add(slot, v.toLowerCase());
  };
const plain =
  (slot: number): IndicatorCollector =>
  (v, out) =>
    out.add(slot, v);

const COLLECTORS: Record<Indicator, IndicatorCollector> = {
  ip: (v, out) => {
    if (isIP(v)) out.add(IP, v);
  },
  domain: addHost,
  hostname: addNetAddr,
  net_addr: addNetAddr,
  url: addUrl,
  md5: hash(MD5, 32),
  sha1: hash(SHA1, 40),
  sha256: hash(SHA256, 64),
  aws_arn: (v, out) => {
    if (!v.startsWith('arn:')) return;
    out.add(ARN, v);
    // The fifth ':'-separated part (arn:partition:service:region:account:...), when it is twelve digits: found
    // by one scan of the characters (indexOf and slice cost more, for every ARN).
    const n = v.length;
    let colons = 1;
    let i = 4;
    for (; i < n && colons < 4; i++) if (v.charCodeAt(i) === 58) colons++;
    if (colons < 4 || i + 12 > n) return;
    for (let j = i; j < i + 12; j++) {
      const c = v.charCodeAt(j);
      if (c < 48 || c > 57) return;
    }
    if (i + 12 === n || v.charCodeAt(i + 12) === 58) out.add(ACCOUNT_ID, v.slice(i, i + 12));
  },
  aws_account_id: (v, out) => {
    if (isAccountId(v)) out.add(ACCOUNT_ID, v);
  },
  aws_instance_id: plain(INSTANCE_ID),
  aws_tag: plain(TAG),
  trace_id: plain(TRACE_ID),
  username: plain(USERNAME),
  email: (v, out) => {
    if (EMAIL_ADDRESS.test(v)) out.add(EMAIL, v);
  },
  mac: (v, out) => {
    if (MAC_ADDRESS.test(v)) out.add(MAC, v.toLowerCase());
  },
  actor_id: plain(ACTOR_ID),
  serial_number: plain(SERIAL),
};

/** The collector of a field's indicators, or null when it has none. */
export function indicatorCollector(kinds: readonly Indicator[] | undefined): IndicatorCollector | null {
  if (!kinds || kinds.length === 0) return null;
  const collectors = kinds.map((k) => COLLECTORS[k]);
  const collect: IndicatorCollector =
    collectors.length === 1
      ? collectors[0]
      : (v, out) => {
          for (let i = 0; i < collectors.length; i++) collectors[i](v, out);
        };
  return (raw, out) => {
    const value = raw.length > 0 && raw.charCodeAt(0) > 32 && raw.charCodeAt(raw.length - 1) > 32 ? raw : raw.trim();
    if (value) collect(value, out);
  };
}
