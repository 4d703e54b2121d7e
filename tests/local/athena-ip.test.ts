// The search builder's IP operators (in CIDR, not in CIDR, contains IP in CIDR, does not contain IP in CIDR,
// is private, is public) as Athena SQL (core/search/builder.ts), run over rows by the Athena stand-in (the
// DuckDB spelling of translate.ts), match exactly the rows the detections' evaluator matches with the same
// condition (core/detections/simple/evaluate.ts): one meaning in search and in detections. One difference,
// Athena's own: its IPADDRESS holds an IPv4 address written as IPv6 (`::ffff:10.0.0.1`) as the IPv4 address, so
// search finds it in 10.0.0.0/8, where the evaluator (Python's ipaddress) keeps the families apart.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition } from '../../core/detections/simple/model';
import { writeExpressions } from '../../core/detections/simple/model';
import { compileExpressions } from '../../core/detections/simple/evaluate';
import type { OperatorCode } from '../../core/detections/simple/operators';
import { BuilderError, builderSql } from '../../core/search/builder';
import type { LakeTableSpec } from '../../core/search/lake-tables';
import { athenaToDuckdb } from '../../local/services/athena/translate';
import { startAthena, type AthenaService } from '../../local/services/athena';
import { localClientConfig } from '../../local/services/net';

const TABLE: LakeTableSpec = {
  database: 'panther_logs',
  name: 'net_flows',
  logType: 'Net.Flows',
  columns: [
    { name: 'p_event_time', type: 'timestamp' },
    { name: 'p_row_id', type: 'string' },
    { name: 'ip', type: 'string' },
    { name: 'ips', type: 'array<string>' },
  ],
};

const IPS: (string | null)[] = [
  '10.1.2.3',
  '8.8.8.8',
  '192.168.0.1',
  '172.31.255.255',
  '172.32.0.1',
  '100.64.1.1',
  '127.0.0.1',
  '169.254.1.1',
  '192.0.0.9',
  '203.0.113.5',
  '255.255.255.255',
  '2001:db8::1',
  '2606:4700::1111',
  '::1',
  'fe80::1',
  'fc00::5',
  '::ffff:10.0.0.1',
  '::ffff:8.8.8.8',
  'not-an-ip',
  '10.0.0.256',
  '',
  null,
];
const ROWS = IPS.map((ip, i) => ({
  p_event_time: '2026-03-01 10:00:00.000000000',
  p_row_id: `r${i}`,
  ip,
  ips: i % 3 === 0 ? [ip, '1.1.1.1'] : i % 3 === 1 ? [ip] : ['1.1.1.1', ip, 'x'],
}));
const RANGE = { from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z' };

let dir: string;
let service: AthenaService;
let athena: AthenaClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-athena-ip-'));
  const hour = join(dir, 'panther_logs', 'net_flows', 'year=2026', 'month=03', 'day=01', 'hour=10');
  mkdirSync(hour, { recursive: true });
  writeFileSync(join(hour, 'a.json.gz'), gzipSync(ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n'));
  service = await startAthena({ lakeDir: dir, tables: [TABLE] });
  athena = new AthenaClient(localClientConfig(service.endpoint, 'us-east-1'));
});

afterAll(async () => {
  athena?.destroy();
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function rowIds(sql: string): Promise<string[]> {
  const id = (await athena.send(new StartQueryExecutionCommand({ QueryString: sql, WorkGroup: 't' }))).QueryExecutionId!;
  for (;;) {
    const q = (await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }))).QueryExecution!;
    if (q.Status?.State === 'FAILED') throw new Error(`${q.Status.StateChangeReason}\n${athenaToDuckdb(sql)}`);
    if (q.Status?.State === 'SUCCEEDED') break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const out = await athena.send(new GetQueryResultsCommand({ QueryExecutionId: id }));
  const column = out.ResultSet!.ResultSetMetadata!.ColumnInfo!.findIndex((c) => c.Name === 'p_row_id');
  return out
    .ResultSet!.Rows!.slice(1)
    .map((r) => r.Data![column].VarCharValue!)
    .sort();
}

async function searched(operator: OperatorCode, target: string, value?: string): Promise<string[]> {
  const condition: Condition = { kind: 'condition', target, operator, ...(value === undefined ? {} : { value }) };
  return rowIds(
    builderSql(
      { logTypes: ['Net.Flows'], conditions: { kind: 'group', conjunction: 'and', items: [condition] }, fields: ['p_row_id'] },
      RANGE,
    ),
  );
}

const MAPPED = new Set(IPS.flatMap((ip, i) => (ip?.startsWith('::ffff:') ? [`r${i}`] : [])));
const withoutMapped = (rows: string[]) => rows.filter((r) => !MAPPED.has(r));

function evaluated(operator: OperatorCode, target: string, value?: string): string[] {
  const condition: Condition = { kind: 'condition', target, operator, ...(value === undefined ? {} : { value }) };
  const predicate = compileExpressions(writeExpressions({ kind: 'group', conjunction: 'and', items: [condition] }));
  return ROWS.filter((r) => predicate(r))
    .map((r) => r.p_row_id)
    .sort();
}

const ids = (...ips: string[]) => ips.map((ip) => `r${IPS.indexOf(ip)}`).sort();

describe('the builder IP operators, over rows', () => {
  it('in CIDR and not in CIDR, IPv4 and IPv6, as the detections evaluator decides', async () => {
    expect(await searched('in cidr', 'ip', '10.0.0.0/8')).toEqual(ids('10.1.2.3', '::ffff:10.0.0.1'));
    expect(await searched('in cidr', 'ip', '2001:db8::/32')).toEqual(ids('2001:db8::1'));
    for (const cidr of ['10.0.0.0/8', '172.16.0.0/12', '0.0.0.0/0', '2001:db8::/32', '::/0', '8.8.8.8/32']) {
      expect(withoutMapped(await searched('in cidr', 'ip', cidr))).toEqual(withoutMapped(evaluated('in cidr', 'ip', cidr)));
      expect(withoutMapped(await searched('not in cidr', 'ip', cidr))).toEqual(
        withoutMapped(evaluated('not in cidr', 'ip', cidr)),
      );
    }
    // IPv4 written as IPv6: in IPv4 networks in search (Athena's IPADDRESS), not in IPv6 ones
    expect(await searched('in cidr', 'ip', '8.0.0.0/8')).toEqual(ids('8.8.8.8', '::ffff:8.8.8.8'));
  });

  it('contains IP in CIDR over arrays', async () => {
    for (const cidr of ['10.0.0.0/8', '1.1.1.0/24', 'fe80::/10']) {
      expect(withoutMapped(await searched('contains ip in cidr', 'ips', cidr))).toEqual(
        withoutMapped(evaluated('contains ip in cidr', 'ips', cidr)),
      );
      expect(withoutMapped(await searched('does not contain ip in cidr', 'ips', cidr))).toEqual(
        withoutMapped(evaluated('does not contain ip in cidr', 'ips', cidr)),
      );
    }
    expect(await searched('contains ip in cidr', 'ips', '1.1.1.0/24')).toHaveLength(
      ROWS.filter((r) => r.ips.includes('1.1.1.1')).length,
    );
  });

  it('is private and is public', async () => {
    const privates = await searched('is private', 'ip');
    expect(privates).toEqual(evaluated('is private', 'ip'));
    expect(privates).toEqual(expect.arrayContaining(ids('10.1.2.3', '127.0.0.1', '169.254.1.1', '::1', 'fe80::1', 'fc00::5')));
    const publics = await searched('is public', 'ip');
    expect(publics).toEqual(evaluated('is public', 'ip'));
    expect(publics).toEqual(expect.arrayContaining(ids('8.8.8.8', '172.32.0.1', '2606:4700::1111', '192.0.0.9')));
    // shared address space (100.64.0.0/10) is neither; text that is no address is neither
    expect([...privates, ...publics]).not.toContain(`r${IPS.indexOf('100.64.1.1')}`);
    expect([...privates, ...publics]).not.toContain(`r${IPS.indexOf('not-an-ip')}`);
  });

  it('refuses a value that is not a CIDR block, in words', () => {
    for (const bad of ['10.0.0.0', '10.0.0.0/33', 'banana/8', ''])
      expect(() =>
        builderSql(
          {
            logTypes: ['Net.Flows'],
            conditions: {
              kind: 'group',
              conjunction: 'and',
              items: [{ kind: 'condition', target: 'ip', operator: 'in cidr', value: bad }],
            },
          },
          RANGE,
        ),
      ).toThrow(new BuilderError('The value of ip must be a CIDR block such as 10.0.0.0/8 or 2001:db8::/32'));
  });

  it('is spelled for DuckDB by the stand-in', () => {
    expect(athenaToDuckdb(`SELECT contains('10.0.0.0/8', TRY_CAST("ip" AS IPADDRESS)), contains(ARRAY[1], 1) FROM t`)).toBe(
      `SELECT athena_ip_in_cidr('10.0.0.0/8', athena_ipaddress("ip" )), contains(ARRAY[1], 1) FROM t`,
    );
  });
});
