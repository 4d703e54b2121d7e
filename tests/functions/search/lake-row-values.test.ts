// Lake rows read back with their types: an event holding nested objects (a struct with a struct and an array of
// structs inside), arrays of numbers and strings, json fields (object, array, text), a fieldless object, numbers,
// an integer past 2^53 and booleans is written to the lake as the pipeline writes it (NDJSON, gzip), read through
// the search door (lakeQueryRows) from the Athena stand-in, and restored from its schema (core/lake/row-values via
// the alert events' eventOfRow): it reads as it was written. Also parseJsonExact and Athena's `{k=v}` text.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakeTime, partitionPath, SIGNALS_DATABASE } from '../../../core/lake/layout';
import { lakeSelectList, parseJsonExact, restoreLakeEvent } from '../../../core/lake/row-values';
import { lakeColumns } from '../../../core/search/lake-tables';
import type { FieldSpec } from '../../../core/schemas/types';
import { startAthena, type AthenaService } from '../../../local/services/athena';
import { ensureLakeTables, lakeQueryRows } from '../../../functions/lib/lake';
import { alertEventsSql, eventOfRow } from '../../../functions/lib/alerts/events';

const HOUR = Date.UTC(2026, 10, 21, 9);
const FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'count', type: 'bigint' },
  { name: 'bytes', type: 'bigint' },
  { name: 'ratio', type: 'float' },
  { name: 'enabled', type: 'boolean' },
  { name: 'disabled', type: 'boolean' },
  { name: 'requestParameters', type: 'json' },
  { name: 'responseElements', type: 'json' },
  { name: 'note', type: 'json' },
  { name: 'extra', type: 'object' },
  { name: 'ports', type: 'array', element: { type: 'bigint' } },
  { name: 'tags', type: 'array', element: { type: 'string' } },
  {
    name: 'userIdentity',
    type: 'object',
    fields: [
      { name: 'type', type: 'string' },
      { name: 'accountId', type: 'string' },
      { name: 'mfa', type: 'boolean' },
      {
        name: 'sessionContext',
        type: 'object',
        fields: [
          { name: 'creationDate', type: 'string' },
          { name: 'depth', type: 'bigint' },
        ],
      },
      { name: 'attributes', type: 'json' },
    ],
  },
  {
    name: 'resources',
    type: 'array',
    element: {
      type: 'object',
      fields: [
        { name: 'ARN', type: 'string' },
        { name: 'size', type: 'float' },
      ],
    },
  },
] as unknown as FieldSpec[];

const EVENT = {
  name: 'CreateAccessKey',
  count: 42,
  bytes: '9007199254740993123',
  ratio: 0.25,
  enabled: true,
  disabled: false,
  requestParameters: { userName: 'deploy-bot', limits: [1, 2, 3], nested: { deep: true, id: '12345678901234567890' } },
  responseElements: ['a', { b: null }],
  note: 'plain text, not JSON',
  extra: { free: { form: 1 } },
  ports: [22, 443],
  tags: ['a, b', 'c=d'],
  userIdentity: {
    type: 'Root',
    accountId: '012345678901',
    mfa: false,
    sessionContext: { creationDate: '2026-11-21T09:00:00Z', depth: 3 },
    attributes: { role: 'admin' },
  },
  resources: [
    { ARN: 'arn:aws:iam::012345678901:user/deploy-bot', size: 1.5 },
    { ARN: 'arn:aws:s3:::bucket', size: 2 },
  ],
};

let dir: string;
let athena: AthenaService;
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-lake-values-'));
  const folder = join(dir, partitionPath(SIGNALS_DATABASE, 'custom_typed', lakeTime(new Date(HOUR))));
  mkdirSync(folder, { recursive: true });
  const row = {
    ...EVENT,
    p_event_time: lakeTime(new Date(HOUR + 60_000)),
    p_log_type: 'Custom.Typed',
    p_row_id: 'typed1',
    p_alert_id: 'c'.repeat(32),
    p_rule_id: 'Typed.Rule',
    p_enrichment: { ips: { '10.0.0.1': { owner: 'ops' } } },
  };
  // The lake's JSON as the pipeline writes it; the big integers as the exact digits it keeps.
  const text = JSON.stringify(row)
    .replace('"9007199254740993123"', '9007199254740993123')
    .replace('"12345678901234567890"', '12345678901234567890');
  writeFileSync(join(folder, 'typed.json.gz'), gzipSync(text + '\n'));
  athena = await startAthena({ lakeDir: dir, tables: [] });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_ATHENA: athena.endpoint,
    AWS_ENDPOINT_URL_GLUE: athena.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ATHENA_WORKGROUP: 'test',
    LAKE_BUCKET: 'lake',
  });
  await ensureLakeTables({ schema: 'Custom.Typed', fields: FIELDS } as never);
}, 60_000);

afterAll(async () => {
  await athena?.stop();
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('lake rows read back with their types', () => {
  it('an event read through the stand-in reads as it was written', async () => {
    // as answered to SELECT *: a json field is JSON text, a struct Athena's `{k=v}` text (ambiguous)
    const [plain] = await lakeQueryRows(`SELECT * FROM "${SIGNALS_DATABASE}"."custom_typed" WHERE p_row_id = 'typed1'`);
    expect(typeof plain.requestParameters).toBe('string');
    expect(String(plain.userIdentity)).toMatch(/^\{type=Root, /);
    // the alert events' query: the table's columns, arrays and structs read as JSON
    const select = lakeSelectList(lakeColumns({ fields: FIELDS }, SIGNALS_DATABASE));
    expect(select).toContain('CAST("userIdentity" AS JSON) AS "userIdentity"');
    const sql = alertEventsSql(
      {
        database: SIGNALS_DATABASE,
        table: 'custom_typed',
        alertId: 'c'.repeat(32),
        from: new Date(HOUR).toISOString(),
        to: new Date(HOUR + 120_000).toISOString(),
        offset: 0,
        limit: 10,
      },
      select,
    );
    const rows = await lakeQueryRows(sql);
    expect(rows).toHaveLength(1);
    const event = eventOfRow(rows[0], FIELDS);
    const { p_event_time, p_log_type, p_row_id, p_alert_id, p_rule_id, p_enrichment, ...fields } = event;
    expect(fields).toEqual({
      ...EVENT,
      responseElements: ['a', { b: null }],
    });
    expect(typeof fields.count).toBe('number');
    expect(fields.bytes).toBe('9007199254740993123');
    expect({ p_log_type, p_row_id, p_alert_id, p_rule_id }).toEqual({
      p_log_type: 'Custom.Typed',
      p_row_id: 'typed1',
      p_alert_id: 'c'.repeat(32),
      p_rule_id: 'Typed.Rule',
    });
    expect(String(p_event_time)).toMatch(/^2026-11-21 09:01:00/);
    expect(p_enrichment).toEqual({ ips: { '10.0.0.1': { owner: 'ops' } } });
  });

  it('restores Athena text forms of arrays and structs by the schema', () => {
    const restored = restoreLakeEvent(FIELDS, {
      ports: '[22, 443]',
      enabled: 'true',
      count: '7',
      useridentity: '{type=Root, accountid=012345678901, mfa=false, sessioncontext={creationdate=x, depth=3}}',
    });
    expect(restored).toEqual({
      ports: [22, 443],
      enabled: true,
      count: 7,
      userIdentity: { type: 'Root', accountId: '012345678901', mfa: false, sessionContext: { creationDate: 'x', depth: 3 } },
    });
  });

  it('parses JSON keeping integers past 2^53 as their text', () => {
    expect(parseJsonExact('{"a":9007199254740993,"b":[1,-2.5e3,"12345678901234567890"],"c":"x\\"9007199254740993"}')).toEqual({
      a: '9007199254740993',
      b: [1, -2500, '12345678901234567890'],
      c: 'x"9007199254740993',
    });
    expect(() => parseJsonExact('{a=1}')).toThrow(SyntaxError);
  });
});
