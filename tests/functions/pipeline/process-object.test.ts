// One object through parsing, classification, normalization and the lake writer, into a folder DuckDB reads.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileSchema, managedSchema } from '../../../core/schemas/index';
import { openLake } from '../../../local/services/athena/duckdb';
import { directoryLakeSink } from '../../../functions/lib/pipeline/dir-sink';
import type { LakeSink } from '../../../functions/lib/lake';
import { LOGS_DATABASE, partitionPath, tableName } from '../../../core/lake/layout';
import { lakeObjectName } from '../../../core/lake/layout';
import { processObject, RAW_LINE_LIMIT, type ProcessObjectInput } from '../../../functions/lib/pipeline/process-object';
import { CLOUDTRAIL, cloudTrailLine, GITHUB_AUDIT, gitHubAuditLine, UNREADABLE_LINE } from '../../pipeline/fixtures';

const parsers = [CLOUDTRAIL, GITHUB_AUDIT].map((t) => compileSchema(managedSchema(t)!));
const input = { sourceId: '11111111-2222-4333-8444-555555555555', bucket: 'ingest', key: 'logs/a.json.gz', etag: 'e1' };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-pipeline-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

const request = (body: string | Uint8Array, extra: Partial<ProcessObjectInput> = {}): ProcessObjectInput => ({
  input,
  sourceLabel: 'prod trail',
  format: { streamType: 'Auto' },
  parsers,
  body: once(typeof body === 'string' ? Buffer.from(body) : body),
  parseTime: new Date('2026-11-21T12:00:00Z'),
  ...extra,
});

function files(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.json.gz')).sort();
}

describe('lake layout', () => {
  it('names tables after log types and partitions by event hour', () => {
    expect(tableName('AWS.CloudTrail')).toBe('aws_cloudtrail');
    expect(partitionPath(LOGS_DATABASE, tableName('Okta.SystemLog'), '2026-11-21 09:59:59.000000000')).toBe(
      'panther_logs/okta_systemlog/year=2026/month=11/day=21/hour=09',
    );
    expect(lakeObjectName(input, 'AWS.CloudTrail', 3)).toMatch(/^[0-9a-f]{32}-0003\.json\.gz$/);
    expect(lakeObjectName({ ...input, etag: 'e2' }, 'AWS.CloudTrail', 3)).not.toBe(lakeObjectName(input, 'AWS.CloudTrail', 3));
  });
});

describe('processObject', () => {
  it('classifies, normalizes and writes gzip NDJSON per log type and event hour; failures counted and kept', async () => {
    const lines = [
      cloudTrailLine('2026-11-21T10:15:00Z'),
      gitHubAuditLine(Date.parse('2026-11-21T10:20:00Z')),
      UNREADABLE_LINE,
      cloudTrailLine('2026-11-21T11:05:00Z', 'GetObject'),
      'x'.repeat(RAW_LINE_LIMIT + 500),
    ];
    const result = await processObject(request(gzipSync(lines.join('\n'))), directoryLakeSink(dir));
    expect(result).toMatchObject({ events: 3, classificationFailures: 2, corrupt: null });
    expect(result.failures.map((f) => [f.lineNumber, f.line.length])).toEqual([
      [3, UNREADABLE_LINE.length],
      [5, RAW_LINE_LIMIT],
    ]);
    expect(result.failures[0].attempts.map((a) => a.logType).sort()).toEqual([CLOUDTRAIL, GITHUB_AUDIT]);
    expect(result.written.map((w) => [w.logType, w.events])).toEqual([
      [CLOUDTRAIL, 1],
      [GITHUB_AUDIT, 1],
      [CLOUDTRAIL, 1],
    ]);
    expect(files(dir).map((f) => f.replace(/[0-9a-f]{32}/, 'ID'))).toEqual([
      'panther_logs/aws_cloudtrail/year=2026/month=11/day=21/hour=10/ID-0000.json.gz',
      'panther_logs/aws_cloudtrail/year=2026/month=11/day=21/hour=11/ID-0000.json.gz',
      'panther_logs/github_audit/year=2026/month=11/day=21/hour=10/ID-0000.json.gz',
    ]);
    const lake = await openLake(dir);
    const rows = await lake.query(
      'SELECT eventName, p_log_type, p_source_id, p_source_label, p_row_id, "hour" FROM panther_logs.aws_cloudtrail ORDER BY eventName',
    );
    lake.close();
    expect(rows).toEqual([
      expect.objectContaining({ eventName: 'ConsoleLogin', p_log_type: CLOUDTRAIL, p_source_id: input.sourceId, hour: 10 }),
      expect.objectContaining({ eventName: 'GetObject', p_source_label: 'prod trail', hour: 11 }),
    ]);
    expect(new Set(rows.map((r) => r.p_row_id)).size).toBe(2);
  });

  it('writes the same files with the same rows when the same object is processed again', async () => {
    const body = [cloudTrailLine('2026-11-21T10:15:00Z'), cloudTrailLine('2026-11-21T10:16:00Z')].join('\n');
    const first = new Map<string, Buffer>();
    const second = new Map<string, Buffer>();
    const into = (m: Map<string, Buffer>): LakeSink => ({ put: async (k, b) => void m.set(k, b) });
    await processObject(request(body), into(first));
    await processObject(request(body, { parseTime: new Date('2026-11-21T12:00:00Z') }), into(second));
    expect([...second.keys()]).toEqual([...first.keys()]);
    expect([...second.values()]).toEqual([...first.values()]);
  });

  it('keeps the events before a corrupt gzip stream and reports it', async () => {
    const whole = gzipSync(
      Buffer.from(
        Array.from({ length: 3000 }, (_, i) => cloudTrailLine(`2026-11-21T10:00:${String(i % 60).padStart(2, '0')}Z`)).join('\n'),
      ),
    );
    const result = await processObject(request(whole.subarray(0, Math.floor(whole.length / 2))), directoryLakeSink(dir));
    expect(result.corrupt).toMatch(/^corrupt gzip/);
    expect(result.events).toBeGreaterThan(0);
    expect(result.events).toBeLessThan(3000);
    expect(files(dir)).toHaveLength(1);
  });

  it('splits a partition into numbered files past the part size', async () => {
    const body = Array.from({ length: 40 }, () => cloudTrailLine('2026-11-21T10:15:00Z')).join('\n');
    const result = await processObject(request(body), directoryLakeSink(dir), { partBytes: 2000 });
    expect(result.written.length).toBeGreaterThan(1);
    expect(result.written.reduce((n, w) => n + w.events, 0)).toBe(40);
    expect(files(dir).map((f) => f.slice(-13))).toEqual(result.written.map((_, i) => `-${String(i).padStart(4, '0')}.json.gz`));
  });

  it('counts every line as a failure when the source has no usable schema', async () => {
    const result = await processObject(request('{"a":1}\n{"b":2}', { parsers: [] }), directoryLakeSink(dir));
    expect(result).toMatchObject({ events: 0, classificationFailures: 2, written: [] });
    expect(result.failures[0].error).toBe('no schemas to classify with');
  });

  it('reads JSON array elements inside an envelope field, with distinct row ids', async () => {
    const body = JSON.stringify({
      Records: [JSON.parse(cloudTrailLine('2026-11-21T10:15:00Z')), JSON.parse(cloudTrailLine('2026-11-21T10:15:00Z'))],
    });
    const rows: string[] = [];
    const sink: LakeSink = {
      put: async (_k, b) => void rows.push(...(await import('node:zlib')).gunzipSync(b).toString().trim().split('\n')),
    };
    const result = await processObject(request(body, { format: { streamType: 'JsonArray', envelopeField: 'Records' } }), sink);
    expect(result.events).toBe(2);
    expect(new Set(rows.map((r) => JSON.parse(r).p_row_id)).size).toBe(2);
  });
});

describe('script schemas', () => {
  const scriptSpec = {
    schema: 'Custom.KeyValue',
    fields: [
      { name: 'user', type: 'string' as const, required: true },
      { name: 'time', type: 'timestamp' as const, timeFormats: ['rfc3339'], isEventTime: true },
    ],
  };
  const fields = compileSchema(scriptSpec);
  // Stands in for the detection engine: reads `user=<u> time=<t>` lines, refuses others.
  const runScript = async (_script: string, lines: readonly string[]) =>
    lines.map((line) => {
      const m = /^user=(\S*) time=(\S+)$/.exec(line);
      if (!m) return { error: 'ValueError: not key=value' };
      return { events: m[1] ? [{ user: m[1], time: m[2] }] : [{ time: m[2] }] };
    });

  it('read the lines the other schemas do not, their events decoded by the schema fields', async () => {
    const body = [
      cloudTrailLine('2026-11-21T10:15:00Z'),
      'user=alice time=2026-11-21T08:00:00Z',
      'user= time=2026-11-21T08:00:00Z',
      'garbage',
    ].join('\n');
    const result = await processObject(
      request(body, { scripts: [{ logType: 'Custom.KeyValue', script: 'def parse(log): ...', fields }], runScript }),
      directoryLakeSink(dir),
    );
    expect(result.events).toBe(2);
    expect(result.written.map((w) => w.logType).sort()).toEqual([CLOUDTRAIL, 'Custom.KeyValue']);
    expect(files(dir).some((f) => f.startsWith('panther_logs/custom_keyvalue/year=2026/month=11/day=21/hour=08/'))).toBe(true);
    expect(result.failures.map((f) => [f.lineNumber, f.attempts.map((a) => a.logType)])).toEqual([
      [3, [CLOUDTRAIL, GITHUB_AUDIT, 'Custom.KeyValue']],
      [4, [CLOUDTRAIL, GITHUB_AUDIT, 'Custom.KeyValue']],
    ]);
    expect(result.failures[0].attempts[2].error).toMatch(/^event 1 the script returned: /);
    expect(result.failures[1].attempts[2].error).toBe('ValueError: not key=value');
  });

  it('fail every line with the reason when the script itself cannot run', async () => {
    const { ScriptParserError } = await import('../../../functions/lib/schemas/script-parser');
    const broken = async () => {
      throw new ScriptParserError('SyntaxError: invalid syntax (line 1)');
    };
    const result = await processObject(
      request('a\nb', {
        parsers: [],
        scripts: [{ logType: 'Custom.KeyValue', script: 'def parse(', fields }],
        runScript: broken,
      }),
      directoryLakeSink(dir),
    );
    expect(result.classificationFailures).toBe(2);
    expect(result.failures[0]).toMatchObject({ error: 'script parser: SyntaxError: invalid syntax (line 1)' });
  });
});
