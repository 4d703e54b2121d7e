// Keys that differ only by case (CloudTrail's requestParameters with principalId and principalID): Athena and
// DuckDB fold column names to lower case, so such keys cannot be two fields of one struct. The rule
// (docs/search.md): a lake read without a schema (`caracal flow`) reads such a table's nested objects as JSON,
// which keeps every key apart with its exact case; a schema's declared fields that collide keep the first
// spelling and suffix the later ones `_2`, `_3`, ...; JSON-typed fields (CloudTrail's requestParameters) keep
// keys apart in both engines.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, staticCatalog } from '../../../core/pantherflow';
import { managedSchema } from '../../../core/schemas/managed-schemas';
import { flowTypeOfHive, foldFields, lakeColumns, lakeTableSpecs } from '../../../core/search/lake-tables';
import { openLake } from '../../../local/services/athena/duckdb';
import { MACRO_DEFINITIONS, athenaToDuckdb } from '../../../local/services/athena/translate';

let dir: string;
const events = [{ principalId: 'AROA-lower', principalID: 'AROA-UPPER' }, { principalId: 'only-lower' }].map(
  (requestParameters, i) => ({
    p_event_time: `2026-01-01 00:0${i}:00.000000000`,
    p_log_type: 'AWS.CloudTrail',
    eventName: 'AssumeRole',
    eventSource: 'sts.amazonaws.com',
    awsRegion: 'us-east-1',
    requestParameters,
  }),
);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-case-keys-'));
  const hour = join(dir, 'panther_logs', 'aws_cloudtrail', 'year=2026', 'month=01', 'day=01', 'hour=00');
  mkdirSync(hour, { recursive: true });
  writeFileSync(join(hour, 'events.json.gz'), gzipSync(events.map((e) => JSON.stringify(e)).join('\n') + '\n'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUERY =
  'panther_logs.public.aws_cloudtrail | sort p_event_time asc | project lower = requestParameters.principalId, upper = requestParameters.principalID';

describe('keys that differ only by case', () => {
  it('caracal flow reads a lake holding them (no "Duplicate name principalid") with both keys apart', async () => {
    const lake = await openLake(dir);
    try {
      const result = compile(QUERY, { catalog: lake.catalog, dialect: 'duckdb' });
      if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
      expect(await lake.query(result.query.sql)).toEqual([
        { lower: 'AROA-lower', upper: 'AROA-UPPER' },
        { lower: 'only-lower', upper: null },
      ]);
    } finally {
      lake.close();
    }
  });

  it('the search path (Glue catalog, Athena dialect, the stand-in) keeps them apart in the JSON column', async () => {
    const tables = lakeTableSpecs([managedSchema('AWS.CloudTrail')!]).filter((t) => t.database === 'panther_logs');
    expect(tables[0].columns.find((c) => c.name === 'requestParameters')?.type).toBe('string');
    const catalog = staticCatalog(
      tables.map((t) => ({
        database: t.database,
        name: t.name,
        timePartitioned: true,
        columns: t.columns.map((c) => ({ name: c.name, type: flowTypeOfHive(c.type) })),
      })),
    );
    const lake = await openLake(dir, { catalog });
    try {
      for (const macro of MACRO_DEFINITIONS) await lake.query(macro);
      const sql =
        "SELECT json_extract_scalar(requestParameters, '$.principalId') AS lower, json_extract_scalar(requestParameters, '$.principalID') AS upper FROM panther_logs.public.aws_cloudtrail ORDER BY p_event_time";
      expect(await lake.query(athenaToDuckdb(sql))).toEqual([
        { lower: 'AROA-lower', upper: 'AROA-UPPER' },
        { lower: 'only-lower', upper: null },
      ]);
    } finally {
      lake.close();
    }
  });

  it('declared fields that collide keep the first spelling and suffix the others', () => {
    expect(
      foldFields([{ name: 'principalId' }, { name: 'principalID' }, { name: 'PRINCIPALID' }, { name: 'other' }]).map((f) => [
        f.name,
        f.key,
      ]),
    ).toEqual([
      ['principalId', 'principalId'],
      ['principalid_2', 'principalID'],
      ['principalid_3', 'PRINCIPALID'],
      ['other', 'other'],
    ]);
    const columns = lakeColumns({
      fields: [
        { name: 'Id', type: 'string' },
        { name: 'ID', type: 'bigint' },
        {
          name: 'p',
          type: 'object',
          fields: [
            { name: 'a', type: 'string' },
            { name: 'A', type: 'string' },
          ],
        },
      ],
    });
    expect(columns.slice(0, 3)).toEqual([
      { name: 'Id', type: 'string', comment: undefined },
      { name: 'id_2', type: 'bigint', comment: undefined },
      { name: 'p', type: 'struct<a:string,a_2:string>', comment: undefined },
    ]);
  });
});
