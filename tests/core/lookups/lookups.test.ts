import { describe, expect, it } from 'vitest';
import {
  CidrIndex,
  Enricher,
  LookupData,
  parseCidr,
  parseCsv,
  parseIPv6,
  parseJsonRecords,
  parseRecords,
  parseSelector,
  providerRecords,
  selectValues,
  validateLookupTable,
  inferColumns,
  LookupDataError,
  type LookupTableInput,
} from '../../../core/lookups/index';

const cidrTable = (rows: [string, string][]) =>
  LookupData.build(
    rows.map(([cidr, name]) => ({ cidr, name })),
    'cidr',
    'CIDR',
  ).table;

describe('CIDR longest prefix', () => {
  it('IPv4: the longest prefix holding the address wins, whatever the order of the rows', () => {
    const rows: [string, string][] = [
      ['10.1.2.0/24', 'lab'],
      ['0.0.0.0/0', 'internet'],
      ['10.0.0.0/8', 'corp'],
      ['10.1.0.0/16', 'office'],
      ['10.1.2.3', 'printer'],
    ];
    for (const order of [rows, [...rows].reverse()]) {
      const table = cidrTable(order);
      expect(table.lookup('10.1.2.3')?.name).toBe('printer');
      expect(table.lookup('10.1.2.4')?.name).toBe('lab');
      expect(table.lookup('10.1.3.4')?.name).toBe('office');
      expect(table.lookup('10.200.0.1')?.name).toBe('corp');
      expect(table.lookup('192.0.2.1')?.name).toBe('internet');
    }
  });

  it('IPv4: no match outside every network, and non-addresses match nothing', () => {
    const table = cidrTable([['192.168.0.0/16', 'home']]);
    expect(table.lookup('192.169.0.1')).toBeUndefined();
    expect(table.lookup('192.168.255.255')?.name).toBe('home');
    expect(table.lookup('not an ip')).toBeUndefined();
    expect(table.lookup('192.168.1.256')).toBeUndefined();
  });

  it('IPv6: longest prefix across 128 bits, compressed forms, and IPv4-mapped addresses reach IPv4 rows', () => {
    const table = cidrTable([
      ['2001:db8::/32', 'doc'],
      ['2001:db8:abcd::/48', 'site'],
      ['2001:db8:abcd:12::/64', 'subnet'],
      ['2001:db8:abcd:12::1/128', 'host'],
      ['::/0', 'any6'],
      ['198.51.100.0/24', 'v4 range'],
    ]);
    expect(table.lookup('2001:db8:abcd:12::1')?.name).toBe('host');
    expect(table.lookup('2001:DB8:ABCD:12:0:0:0:2')?.name).toBe('subnet');
    expect(table.lookup('2001:db8:abcd:13::1')?.name).toBe('site');
    expect(table.lookup('2001:db8:ffff::1')?.name).toBe('doc');
    expect(table.lookup('2600::1')?.name).toBe('any6');
    expect(table.lookup('::ffff:198.51.100.7')?.name).toBe('any6'); // ::/0 holds it first
    const v4only = cidrTable([['198.51.100.0/24', 'v4 range']]);
    expect(v4only.lookup('::ffff:198.51.100.7')?.name).toBe('v4 range');
    expect(v4only.lookup('2600::1')).toBeUndefined();
  });

  it('prefixes that cross a 32-bit word boundary in IPv6', () => {
    const table = cidrTable([
      ['2001:db8:1234:5678::/33', 'a'],
      ['2001:db8:8000::/33', 'b'],
    ]);
    expect(table.lookup('2001:db8:0:1::1')?.name).toBe('a');
    expect(table.lookup('2001:db8:8000::1')?.name).toBe('b');
  });

  it('parses and rejects', () => {
    expect(parseCidr('10.0.0.7/8')).toEqual({ version: 4, network: 0x0a000000, bits: 8 });
    expect(parseCidr('10.0.0.0/33')).toBeUndefined();
    expect(parseCidr('2001:db8::/129')).toBeUndefined();
    expect(parseCidr('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(parseCidr('1::2::3')).toBeUndefined();
    expect(parseCidr('10.0.0.0/x')).toBeUndefined();
    expect([...parseIPv6('::1')!]).toEqual([0, 0, 0, 1]);
  });

  it('a later duplicate network replaces the earlier one; the index counts networks', () => {
    const index = new CidrIndex([
      [parseCidr('10.0.0.0/8')!, 1],
      [parseCidr('10.9.9.9/8')!, 2],
      [parseCidr('::/0')!, 3],
    ]);
    expect(index.size).toBe(2);
    expect(index.match('10.1.1.1')).toBe(2);
    expect(index.byteLength).toBeGreaterThan(0);
  });
});

describe('selectors', () => {
  const event = {
    srcAddr: '10.0.0.1',
    user: { name: 'ann', 'odd key': 'x' },
    ips: ['1.1.1.1', '2.2.2.2'],
    hops: [{ ip: '3.3.3.3' }, { ip: '4.4.4.4' }, { other: 1 }],
    port: 443,
  };

  it('reads fields, quoted names, indexes and wildcards', () => {
    expect(selectValues(event, parseSelector('$.srcAddr'))).toEqual(['10.0.0.1']);
    expect(selectValues(event, parseSelector('srcAddr'))).toEqual(['10.0.0.1']);
    expect(selectValues(event, parseSelector("$.user['odd key']"))).toEqual(['x']);
    expect(selectValues(event, parseSelector('$.ips[1]'))).toEqual(['2.2.2.2']);
    expect(selectValues(event, parseSelector('$.ips[*]'))).toEqual(['1.1.1.1', '2.2.2.2']);
    expect(selectValues(event, parseSelector('$.ips'))).toEqual(['1.1.1.1', '2.2.2.2']);
    expect(selectValues(event, parseSelector('$.hops[*].ip'))).toEqual(['3.3.3.3', '4.4.4.4']);
    expect(selectValues(event, parseSelector('$.port'))).toEqual(['443']);
    expect(selectValues(event, parseSelector('$.missing.deeper'))).toEqual([]);
    expect(selectValues(event, parseSelector('$.user'))).toEqual([]);
  });

  it('rejects what it cannot read', () => {
    expect(() => parseSelector('')).toThrow('A selector cannot be empty');
    expect(() => parseSelector('$')).toThrow('selects the whole event');
    expect(() => parseSelector('$.a[?(@.b)]')).toThrow("Invalid selector '$.a[?(@.b)]'");
  });
});

describe('data files', () => {
  it('CSV with quotes, escaped quotes, CRLF and a BOM', () => {
    const records = parseCsv('\ufeffcidr,name,note\r\n10.0.0.0/8,"Corp, Inc","say ""hi"""\r\n192.168.0.0/16,home,\r\n');
    expect(records).toEqual([
      { cidr: '10.0.0.0/8', name: 'Corp, Inc', note: 'say "hi"' },
      { cidr: '192.168.0.0/16', name: 'home' },
    ]);
  });

  it('CSV errors name the line', () => {
    expect(() => parseCsv('a,b\n1,"2\n')).toThrow(/quoted field is not closed/);
    expect(() => parseCsv('a,a\n1,2')).toThrow("CSV: the column 'a' appears twice in the header");
    expect(() => parseCsv('a,b\n1,2,3')).toThrow('CSV: row 2 has 3 fields, the header 2');
  });

  it('JSON arrays and JSON lines; columns inferred', () => {
    expect(parseJsonRecords('[{"a":1},{"a":2.5,"b":true}]')).toHaveLength(2);
    expect(parseJsonRecords('{"a":1}\n\n{"a":"x"}\n')).toEqual([{ a: 1 }, { a: 'x' }]);
    expect(() => parseJsonRecords('[1]')).toThrow('JSON: item 1 is not an object');
    expect(() => parseJsonRecords('{"a":1}\n{oops')).toThrow(/JSON: line 2/);
    expect(inferColumns([{ a: 1, b: true }, { a: 2.5, c: 'x' }, { c: 1 }])).toEqual([
      { name: 'a', type: 'float' },
      { name: 'b', type: 'boolean' },
      { name: 'c', type: 'string' },
    ]);
    expect(() => parseRecords('x.csv', '')).toThrow(LookupDataError);
  });

  it('rows without a usable key are skipped and counted', () => {
    const load = LookupData.build([{ cidr: '10.0.0.0/8' }, { name: 'no key' }, { cidr: 'nonsense' }], 'cidr', 'CIDR');
    expect(load.table.rowCount).toBe(1);
    expect(load.skippedCount).toBe(2);
    expect(load.skipped.map((s) => s.row)).toEqual([2, 3]);
    expect(load.skipped[1].reason).toBe("'nonsense' is not a CIDR or IP address");
  });

  it('string keys match exactly', () => {
    const table = LookupData.build(
      [
        { user: 'ann', team: 'red' },
        { user: 'bob', team: 'blue' },
      ],
      'user',
      'STRING',
    ).table;
    expect(table.lookup('bob')).toEqual({ user: 'bob', team: 'blue' });
    expect(table.lookup('Bob')).toBeUndefined();
    expect(table.preview(1)).toEqual([{ user: 'ann', team: 'red' }]);
  });

  it('a Tor exit list (bare addresses or the exit-addresses format) becomes ip records', () => {
    expect(providerRecords('TOR_EXIT_NODES', '# list\n185.220.101.1\n2a0b:f4c2::1\n')).toEqual([
      { ip: '185.220.101.1' },
      { ip: '2a0b:f4c2::1' },
    ]);
    expect(providerRecords('TOR_EXIT_NODES', 'ExitNode AB\nExitAddress 1.2.3.4 2026-01-01 00:00:00\n')).toEqual([
      { ip: 'ExitNode' },
      { ip: '1.2.3.4' },
    ]);
    expect(providerRecords('TOR_EXIT_NODES', 'ip\n1.2.3.4\n')).toBeUndefined();
  });
});

describe('enrichment', () => {
  const locations = cidrTable([
    ['10.0.0.0/8', 'corp'],
    ['10.1.0.0/16', 'office'],
    ['2001:db8::/32', 'v6 corp'],
  ]);
  const users = LookupData.build([{ user: 'ann', team: 'red' }], 'user', 'STRING').table;
  const enricher = new Enricher([
    {
      name: 'locations',
      data: locations,
      associations: [
        { logType: 'AWS.VPCFlow', selectors: ['$.srcAddr', '$.dstAddr'] },
        { logType: 'Custom.Hops', selectors: ['$.hops[*]'] },
      ],
    },
    { name: 'users', data: users, associations: [{ logType: 'AWS.VPCFlow', selectors: ['$.owner'] }] },
  ]);

  it('adds p_enrichment.<table>.<selector> with the matching rows', () => {
    const event: Record<string, unknown> = { srcAddr: '10.1.2.3', dstAddr: '8.8.8.8', owner: 'ann', p_log_type: 'AWS.VPCFlow' };
    expect(enricher.enrich('AWS.VPCFlow', event)).toBe(true);
    expect(event.p_enrichment).toEqual({
      locations: { '$.srcAddr': { cidr: '10.1.0.0/16', name: 'office' } },
      users: { '$.owner': { user: 'ann', team: 'red' } },
    });
  });

  it('an array selector gives a list of the matching rows; no match leaves the event alone', () => {
    const event: Record<string, unknown> = { hops: ['10.9.9.9', '1.1.1.1', '2001:db8::5'] };
    enricher.enrich('Custom.Hops', event);
    expect(event.p_enrichment).toEqual({
      locations: {
        '$.hops[*]': [
          { cidr: '10.0.0.0/8', name: 'corp' },
          { cidr: '2001:db8::/32', name: 'v6 corp' },
        ],
      },
    });
    const untouched: Record<string, unknown> = { srcAddr: '8.8.8.8' };
    expect(enricher.enrich('AWS.VPCFlow', untouched)).toBe(false);
    expect(untouched).toEqual({ srcAddr: '8.8.8.8' });
    expect(enricher.enrich('Other.Type', { srcAddr: '10.0.0.1' })).toBe(false);
  });

  it('lookup(table, key) answers a row or nothing', () => {
    expect(enricher.lookup('users', 'ann')?.team).toBe('red');
    expect(enricher.lookup('users', 'zed')).toBeUndefined();
    expect(enricher.lookup('nope', 'ann')).toBeUndefined();
  });
});

describe('validation', () => {
  const base: LookupTableInput = {
    name: 'office_ranges',
    description: 'Our networks',
    primaryKey: 'cidr',
    keyType: 'CIDR',
    enabled: true,
    source: { kind: 'FILE' },
    associations: [{ logType: 'AWS.VPCFlow', selectors: ['$.srcAddr'] }],
  };
  it('accepts a good table', () => {
    expect(validateLookupTable(base, ['cidr', 'name'])).toEqual([]);
  });
  it('names each problem by its field path', () => {
    const problems = validateLookupTable(
      {
        ...base,
        name: '1bad name',
        primaryKey: 'ip',
        source: { kind: 'S3', location: 'bucket/key', roleArn: 'role', refreshMinutes: 5 },
        associations: [
          { logType: 'AWS.VPCFlow', selectors: [] },
          { logType: 'AWS.VPCFlow', selectors: ['$.a[?x]'] },
        ],
      },
      ['cidr'],
    );
    expect(problems.map((p) => p.path)).toEqual([
      'name',
      'primaryKey',
      'source.location',
      'source.roleArn',
      'source.refreshMinutes',
      'associations[0].selectors',
      'associations[1].logType',
      'associations[1].selectors[0]',
    ]);
  });
  it('a scheduled query needs SQL and a refresh period', () => {
    const problems = validateLookupTable({ ...base, source: { kind: 'QUERY', query: ' ', refreshMinutes: 60 } });
    expect(problems).toEqual([{ path: 'source.query', message: 'A scheduled query needs its SQL' }]);
  });
});
