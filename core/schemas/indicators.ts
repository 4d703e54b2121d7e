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

/** Collected indicator values for one event, deduplicated, in the order first seen. */
export class IndicatorSet {
  private readonly sets = new Map<IndicatorField, Set<string>>();

  add(field: IndicatorField, value: string): void {
    let set = this.sets.get(field);
    if (!set) this.sets.set(field, (set = new Set()));
    set.add(value);
  }

  /** Writes the non-empty arrays onto the event, in the standard field order. */
  writeTo(event: Record<string, unknown>): void {
    if (this.sets.size === 0) return;
    for (const field of INDICATOR_FIELDS) {
      const set = this.sets.get(field);
      if (set) event[field] = [...set];
    }
  }
}

const HEX = /^[0-9a-fA-F]+$/;
const ACCOUNT_ID = /^\d{12}$/;
const MAC = /^[0-9a-fA-F]{2}([:-]?)[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){4}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DOMAIN = /^[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})?)*\.?$/;

function addHost(host: string, out: IndicatorSet): void {
  let h = host;
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (!h) return;
  if (isIP(h)) out.add('p_any_ip_addresses', h);
  else if (DOMAIN.test(h)) out.add('p_any_domain_names', h.toLowerCase().replace(/\.$/, ''));
}

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address. */
function addNetAddr(value: string, out: IndicatorSet): void {
  if (isIP(value)) return out.add('p_any_ip_addresses', value);
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

export function collectIndicator(kind: Indicator, raw: string, out: IndicatorSet): void {
  const value = raw.trim();
  if (!value) return;
  switch (kind) {
    case 'ip':
      if (isIP(value)) out.add('p_any_ip_addresses', value);
      return;
    case 'domain':
      addHost(value, out);
      return;
    case 'hostname':
    case 'net_addr':
      addNetAddr(value, out);
      return;
    case 'url':
      addUrl(value, out);
      return;
    case 'md5':
      if (value.length === 32 && HEX.test(value)) out.add('p_any_md5_hashes', value.toLowerCase());
      return;
    case 'sha1':
      if (value.length === 40 && HEX.test(value)) out.add('p_any_sha1_hashes', value.toLowerCase());
      return;
    case 'sha256':
      if (value.length === 64 && HEX.test(value)) out.add('p_any_sha256_hashes', value.toLowerCase());
      return;
    case 'aws_arn': {
      if (!value.startsWith('arn:')) return;
      out.add('p_any_aws_arns', value);
      const account = value.split(':')[4];
      if (account && ACCOUNT_ID.test(account)) out.add('p_any_aws_account_ids', account);
      return;
    }
    case 'aws_account_id':
      if (ACCOUNT_ID.test(value)) out.add('p_any_aws_account_ids', value);
      return;
    case 'aws_instance_id':
      out.add('p_any_aws_instance_ids', value);
      return;
    case 'aws_tag':
      out.add('p_any_aws_tags', value);
      return;
    case 'trace_id':
      out.add('p_any_trace_ids', value);
      return;
    case 'username':
      out.add('p_any_usernames', value);
      return;
    case 'email':
      if (EMAIL.test(value)) out.add('p_any_emails', value);
      return;
    case 'mac':
      if (MAC.test(value)) out.add('p_any_mac_addresses', value.toLowerCase());
      return;
    case 'actor_id':
      out.add('p_any_actor_ids', value);
      return;
    case 'serial_number':
      out.add('p_any_serial_numbers', value);
      return;
  }
}

