// Odd input through the pipeline (issue 19): a malformed first line, the envelopes AWS services write, and
// gzip bombs. Every case is accounted: each line is an event in the lake or a counted failure, and an object
// beyond the inflation caps is refused visibly (its `corrupt` reason), never silently.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compileSchema, managedSchema } from '../../../core/schemas/index';
import type { LakeSink } from '../../../functions/lib/lake';
import { processObject, type ProcessObjectInput, type ProcessObjectResult } from '../../../functions/lib/pipeline/process-object';
import { RATIO_FLOOR_BYTES } from '../../../core/pipeline/limits';
import { cloudTrailLine } from '../../pipeline/fixtures';

const fixture = (name: string) => readFileSync(join(__dirname, '../../core/pipeline/fixtures', name));
const parsersOf = (...types: string[]) => types.map((t) => compileSchema(managedSchema(t)!));

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** The object processed with the Auto stream type into memory: the result and the rows written per log type. */
async function run(
  body: string | Uint8Array,
  logTypes: string[],
  extra: Partial<ProcessObjectInput> = {},
): Promise<{ result: ProcessObjectResult; rows: Record<string, Record<string, unknown>[]> }> {
  const rows: Record<string, Record<string, unknown>[]> = {};
  const sink: LakeSink = {
    put: async (_key, gz) => {
      for (const line of gunzipSync(gz).toString().trim().split('\n')) {
        const row = JSON.parse(line) as Record<string, unknown>;
        (rows[String(row.p_log_type)] ??= []).push(row);
      }
    },
  };
  const result = await processObject(
    {
      input: { sourceId: '11111111-2222-4333-8444-555555555555', bucket: 'ingest', key: 'logs/object', etag: 'e1' },
      sourceLabel: 'aws',
      format: { streamType: 'Auto' },
      parsers: parsersOf(...logTypes),
      body: once(typeof body === 'string' ? Buffer.from(body) : body),
      parseTime: new Date('2026-11-21T12:00:00Z'),
      ...extra,
    },
    sink,
  );
  const written = Object.values(rows).reduce((n, r) => n + r.length, 0);
  // What the result says was written is what the lake holds.
  expect(written).toBe(result.events);
  return { result, rows };
}

describe('Auto with a malformed first line', () => {
  it('reads the object line by line: 10 events and 1 failure for the truncated line', async () => {
    const lines = ['{"action": "trunc', ...Array.from({ length: 10 }, (_, i) => cloudTrailLine(`2026-11-21T10:${10 + i}:00Z`))];
    for (const body of [lines.join('\n'), gzipSync(lines.join('\n'))]) {
      const { result } = await run(body, ['AWS.CloudTrail']);
      expect(result).toMatchObject({ events: 10, classificationFailures: 1, corrupt: null });
      expect(result.failures[0]).toMatchObject({ lineNumber: 1, line: '{"action": "trunc' });
      expect(result.events + result.classificationFailures).toBe(lines.length);
    }
  });

  it('still reads a pretty-printed document as one JSON value', async () => {
    const doc = JSON.stringify(JSON.parse(cloudTrailLine('2026-11-21T10:00:00Z')), null, 2);
    const { result } = await run(`${doc}\n${doc}\n`, ['AWS.CloudTrail']);
    expect(result).toMatchObject({ events: 2, classificationFailures: 0 });
  });
});

describe('Auto with the envelopes AWS services write', () => {
  it('reads each event of a CloudTrail log file ({"Records":[...]}, gzip)', async () => {
    const { result, rows } = await run(gzipSync(fixture('cloudtrail.json')), ['AWS.CloudTrail']);
    expect(result).toMatchObject({ events: 3, classificationFailures: 0, corrupt: null });
    expect(rows['AWS.CloudTrail'].map((r) => r.eventName)).toEqual(['StartInstances', 'CreateUser', 'ListBuckets']);
    expect(new Set(rows['AWS.CloudTrail'].map((r) => r.p_row_id)).size).toBe(3);
  });

  it('reads CloudTrail log files concatenated one per line', async () => {
    const file = fixture('cloudtrail.json').toString().trim();
    const { result } = await run(`${file}\n${file}\n`, ['AWS.CloudTrail']);
    expect(result).toMatchObject({ events: 6, classificationFailures: 0 });
  });

  it('reads the log events of a CloudWatch Logs subscription message (gzip), and of several in one object', async () => {
    const message = fixture('cloudwatch-subscription.json');
    const { result } = await run(gzipSync(message), ['AWS.CloudTrail']);
    expect(result).toMatchObject({ events: 3, classificationFailures: 0 });
    const two = await run(gzipSync(Buffer.concat([message, message])), ['AWS.CloudTrail']);
    expect(two.result).toMatchObject({ events: 6, classificationFailures: 0 });
  });

  it('reads the findings of GuardDuty events delivered through EventBridge', async () => {
    const { result, rows } = await run(fixture('guardduty-eventbridge.jsonl'), ['AWS.GuardDuty']);
    expect(result.failures).toEqual([]);
    expect(result.events).toBe(2);
    expect(rows['AWS.GuardDuty'].map((r) => r.type)).toEqual([
      'UnauthorizedAccess:EC2/MaliciousIPCaller.Custom',
      'Recon:EC2/PortProbeUnprotectedPort',
    ]);
  });

  it('reads each finding of a Security Hub event delivered through EventBridge', async () => {
    const { result, rows } = await run(fixture('securityhub-eventbridge.jsonl'), ['AWS.SecurityFindingFormat']);
    expect(result.failures).toEqual([]);
    expect(result.events).toBe(2);
    expect(new Set(rows['AWS.SecurityFindingFormat'].map((r) => r.p_row_id)).size).toBe(2);
  });

  it('reads VPC flow logs after their header line, and ALB access logs as lines', async () => {
    const vpc = await run(gzipSync(fixture('vpc-flow.log')), ['AWS.VPCFlow']);
    expect(vpc.result).toMatchObject({ events: 3, classificationFailures: 0 });
    const alb = await run(gzipSync(fixture('alb.log')), ['AWS.ALB']);
    expect(alb.result).toMatchObject({ events: 2, classificationFailures: 0 });
  });

  it('leaves other JSON alone: an event of a non-AWS EventBridge source is one record', async () => {
    const partner = JSON.stringify({ 'detail-type': 'x', source: 'aws.partner/acme', detail: { a: 1 } });
    const { result } = await run(partner, ['AWS.CloudTrail']);
    expect(result).toMatchObject({ events: 0, classificationFailures: 1 });
    expect(result.failures[0].line).toBe(partner);
  });
});

describe('gzip objects beyond the inflation caps', () => {
  it('refuses a gzip bomb visibly, past the ratio floor, without reading it to its end', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * RATIO_FLOOR_BYTES, 'x'));
    expect(bomb.length).toBeLessThan(100_000);
    const { result } = await run(bomb, ['AWS.CloudTrail']);
    expect(result.corrupt).toMatch(/^gzip inflates more than 200 times \(\d+ bytes from \d+\); refused as a decompression bomb$/);
    expect(result.bytes).toBeLessThanOrEqual(RATIO_FLOOR_BYTES + 1024 * 1024);
    expect(result).toMatchObject({ events: 0, classificationFailures: 0 });
  });

  it('reads a highly compressible object of real lines within the caps, every line accounted', async () => {
    // As real logs are: times and ids vary from line to line (about 30 times smaller in gzip).
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      cloudTrailLine(
        `2026-11-21T10:${String(Math.floor(i / 600) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
        'GetObject',
        {
          eventID: `e${(i * 2654435761) % 4294967296}`,
          requestID: `r${(i * 40503) % 65536}-${i}`,
        },
      ),
    );
    const body = gzipSync(lines.join('\n'));
    expect(lines.join('\n').length / body.length).toBeGreaterThan(10);
    const { result } = await run(body, ['AWS.CloudTrail']);
    expect(result).toMatchObject({ events: 20_000, classificationFailures: 0, corrupt: null });
  });
});
