// Lookup tables and enrichment providers: the model and its validation, shared by the API and the web forms.
// A table has a name (the key of `p_enrichment` and of `event.lookup`), a primary key (a string or CIDR
// column), data from an uploaded file, an S3 object refreshed every N minutes, or a scheduled query, and the
// log types it enriches with their selectors. Enrichment providers are packaged tables (IPinfo, Tor exit
// nodes, a threat-intel list) whose data the user supplies as a file or a URL fetched on a schedule.
import { CONTROL_CHARACTERS, FIELD_REQUIRED, hasControlCharacters, tooLong } from '../validation/generic';
import type { KeyType } from './data';
import { selectorProblem } from './selectors';

export type LookupSourceKind = 'FILE' | 'S3' | 'QUERY' | 'URL';
export type LookupStatus = 'EMPTY' | 'READY' | 'REFRESH_FAILED' | 'WAITING_FOR_SEARCH';
export type ProviderKind = 'IPINFO_LOCATION' | 'IPINFO_ASN' | 'IPINFO_PRIVACY' | 'TOR_EXIT_NODES' | 'THREAT_INTEL';

export interface LookupAssociation {
  logType: string;
  selectors: string[];
}

export interface LookupSource {
  kind: LookupSourceKind;
  /** S3: s3://bucket/key; URL: https://... */
  location?: string | null;
  roleArn?: string | null;
  refreshMinutes?: number | null;
  /** QUERY: the SQL run on schedule. */
  query?: string | null;
}

export interface LookupTableInput {
  name: string;
  description?: string | null;
  primaryKey: string;
  keyType: KeyType;
  enabled: boolean;
  source: LookupSource;
  associations: LookupAssociation[];
  provider?: ProviderKind | null;
}

export interface LookupVersion {
  version: number;
  objectKey: string;
  rowCount: number;
  sizeBytes: number;
  loadedAt: string;
}

export interface LookupTable extends LookupTableInput {
  id: string;
  columns: { name: string; type: string }[];
  status: LookupStatus;
  rowCount: number;
  sizeBytes: number;
  version: number;
  versions: LookupVersion[];
  lastRefreshAt?: string | null;
  lastError?: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy?: string | null;
  /** The user who last saved the table. */
  updatedBy?: string | null;
  /**
   * The user (id) who set the table's S3 or query source: each refresh reads it on their behalf, and fails when
   * they no longer exist, are deactivated or lack the permission the source needs (access.ts).
   */
  sourceSetBy?: string | null;
}

export const MESSAGES = {
  required: FIELD_REQUIRED,
  tableName: 'Must start with a letter and hold only letters, digits, underscores, dots and dashes (at most 64)',
  primaryKeyColumn: 'The primary key must be one of the columns',
  s3Location: 'Must be an S3 object address: s3://bucket/key',
  url: 'Must be an https:// URL',
  roleArn: 'Must be a valid IAM role ARN (arn:aws:iam::123456789012:role/name)',
  refreshMinutes: 'Must be a whole number of minutes between 15 and 10080',
  query: 'A scheduled query needs its SQL',
  selectorsRequired: 'At least 1 selector is required',
  duplicateLogType: 'Each log type is associated once',
  control: CONTROL_CHARACTERS,
} as const;

const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

export interface Problem {
  path: string;
  message: string;
}

export const MAX_DESCRIPTION = 1000;
export const MIN_REFRESH_MINUTES = 15;
export const MAX_REFRESH_MINUTES = 7 * 24 * 60;

export function tableNameError(name: string): string | undefined {
  if (!name.trim()) return FIELD_REQUIRED;
  return TABLE_NAME.test(name) ? undefined : MESSAGES.tableName;
}

/** Every problem of a table's input, with the form's field paths. `columns`: the data's, when known. */
export function validateLookupTable(input: LookupTableInput, columns?: string[]): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, message: string | undefined) => message && problems.push({ path, message });
  add('name', tableNameError(input.name ?? ''));
  if (input.description && input.description.length > MAX_DESCRIPTION) add('description', tooLong(MAX_DESCRIPTION));
  if (input.description && hasControlCharacters(input.description, { multiLine: true })) add('description', MESSAGES.control);
  if (!input.primaryKey?.trim()) add('primaryKey', FIELD_REQUIRED);
  else if (columns && columns.length && !columns.includes(input.primaryKey)) add('primaryKey', MESSAGES.primaryKeyColumn);
  const source = input.source;
  const refresh = source.refreshMinutes;
  const refreshError = () =>
    refresh === null ||
    refresh === undefined ||
    !Number.isInteger(refresh) ||
    refresh < MIN_REFRESH_MINUTES ||
    refresh > MAX_REFRESH_MINUTES
      ? MESSAGES.refreshMinutes
      : undefined;
  if (source.kind === 'S3') {
    if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/.+/.test(source.location ?? '')) add('source.location', MESSAGES.s3Location);
    if (source.roleArn && !ROLE_ARN.test(source.roleArn)) add('source.roleArn', MESSAGES.roleArn);
    add('source.refreshMinutes', refreshError());
  } else if (source.kind === 'URL') {
    if (!/^https:\/\/[^\s/]+(\/\S*)?$/.test(source.location ?? '')) add('source.location', MESSAGES.url);
    add('source.refreshMinutes', refreshError());
  } else if (source.kind === 'QUERY') {
    if (!source.query?.trim()) add('source.query', MESSAGES.query);
    add('source.refreshMinutes', refreshError());
  }
  const seen = new Set<string>();
  input.associations.forEach((association, at) => {
    if (!association.logType?.trim()) add(`associations[${at}].logType`, FIELD_REQUIRED);
    else if (seen.has(association.logType)) add(`associations[${at}].logType`, MESSAGES.duplicateLogType);
    seen.add(association.logType);
    if (!association.selectors.length) add(`associations[${at}].selectors`, MESSAGES.selectorsRequired);
    association.selectors.forEach((selector, s) => add(`associations[${at}].selectors[${s}]`, selectorProblem(selector)));
  });
  return problems;
}

/** The packaged enrichment providers: the table each makes, its key and the columns it expects. */
export const PROVIDERS: Record<
  ProviderKind,
  {
    title: string;
    tableName: string;
    description: string;
    keyType: KeyType;
    primaryKey: string;
    columns: string[];
    selectors: string[];
  }
> = {
  IPINFO_LOCATION: {
    title: 'IPinfo Location',
    tableName: 'ipinfo_location',
    description: 'Country, region, city and coordinates of IP ranges (IPinfo location data).',
    keyType: 'CIDR',
    primaryKey: 'cidr',
    columns: ['cidr', 'city', 'region', 'country', 'lat', 'lng', 'postal_code', 'timezone'],
    selectors: ['$.p_any_ip_addresses[*]'],
  },
  IPINFO_ASN: {
    title: 'IPinfo ASN',
    tableName: 'ipinfo_asn',
    description: 'The autonomous system of IP ranges (IPinfo ASN data).',
    keyType: 'CIDR',
    primaryKey: 'cidr',
    columns: ['cidr', 'asn', 'name', 'domain', 'route', 'type'],
    selectors: ['$.p_any_ip_addresses[*]'],
  },
  IPINFO_PRIVACY: {
    title: 'IPinfo Privacy',
    tableName: 'ipinfo_privacy',
    description: 'Whether IP ranges are VPNs, proxies, Tor, relays or hosting (IPinfo privacy data).',
    keyType: 'CIDR',
    primaryKey: 'cidr',
    columns: ['cidr', 'hosting', 'proxy', 'tor', 'vpn', 'relay', 'service'],
    selectors: ['$.p_any_ip_addresses[*]'],
  },
  TOR_EXIT_NODES: {
    title: 'Tor Exit Nodes',
    tableName: 'tor_exit_nodes',
    description: 'Addresses of Tor exit nodes (one address per line, or a CSV with an ip column).',
    keyType: 'CIDR',
    primaryKey: 'ip',
    columns: ['ip'],
    selectors: ['$.p_any_ip_addresses[*]'],
  },
  THREAT_INTEL: {
    title: 'Threat Intelligence',
    tableName: 'threat_intel',
    description: 'Indicators (IP addresses, domains, hashes) from a MISP CSV export: value, type, category, comment.',
    keyType: 'STRING',
    primaryKey: 'value',
    columns: ['value', 'type', 'category', 'comment', 'event_id'],
    selectors: ['$.p_any_ip_addresses[*]', '$.p_any_domain_names[*]', '$.p_any_sha256_hashes[*]', '$.p_any_md5_hashes[*]'],
  },
};

/** Records of a provider's file: Tor's bare address list becomes {ip}; MISP exports keep their columns. */
export function providerRecords(kind: ProviderKind, text: string): Record<string, unknown>[] | undefined {
  if (kind !== 'TOR_EXIT_NODES') return undefined;
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const first = lines.find((line) => line && !line.startsWith('#'));
  if (first && /^ip\b/i.test(first)) return undefined; // a CSV with a header: read as CSV
  return lines
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => ({ ip: line.startsWith('ExitAddress ') ? line.split(/\s+/)[1] : line.split(/\s+/)[0] }));
}
