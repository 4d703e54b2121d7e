// Enrichment in the processor: events of an associated log type leave the pipeline with p_enrichment, in
// the lake files (what detections read) and as DuckDB reads them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Enricher, LookupData } from '../../../core/lookups/index';
import { compileSchema, managedSchema } from '../../../core/schemas/index';
import { openLake } from '../../../local/services/athena/duckdb';
import { directoryLakeSink } from '../../../functions/lib/pipeline/dir-sink';
import { processObject, type ProcessObjectInput } from '../../../functions/lib/pipeline/process-object';
import { CLOUDTRAIL, cloudTrailLine, GITHUB_AUDIT, gitHubAuditLine } from '../../pipeline/fixtures';

const parsers = [CLOUDTRAIL, GITHUB_AUDIT].map((t) => compileSchema(managedSchema(t)!));
const input = { sourceId: '11111111-2222-4333-8444-555555555555', bucket: 'ingest', key: 'logs/a.json', etag: 'e1' };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'caracal-enrich-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function* once(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text);
}

const networks = LookupData.build(
  [
    { cidr: '203.0.113.0/24', site: 'test-net-3', owner: 'docs' },
    { cidr: '203.0.113.0/28', site: 'office', owner: 'it' },
  ],
  'cidr',
  'CIDR',
).table;
const people = LookupData.build([{ userName: 'alice', team: 'security' }], 'userName', 'STRING').table;
const enricher = new Enricher([
  { name: 'networks', data: networks, associations: [{ logType: CLOUDTRAIL, selectors: ['$.sourceIPAddress'] }] },
  { name: 'people', data: people, associations: [{ logType: CLOUDTRAIL, selectors: ['$.userIdentity.userName'] }] },
]);

const request = (body: string, enrich?: ProcessObjectInput['enrich']): ProcessObjectInput => ({
  input,
  sourceLabel: 'trail',
  format: { streamType: 'Auto' },
  parsers,
  body: once(body),
  parseTime: new Date('2026-11-21T12:00:00Z'),
  enrich,
});

describe('enrichment in the processor', () => {
  it('adds p_enrichment.<table>.<selector> to associated events only, in the lake', async () => {
    const body = [
      cloudTrailLine('2026-11-21T10:15:00Z'),
      cloudTrailLine('2026-11-21T10:16:00Z', 'GetObject', {
        sourceIPAddress: '198.51.100.1',
        userIdentity: { type: 'IAMUser', userName: 'bob' },
      }),
      gitHubAuditLine(Date.parse('2026-11-21T10:20:00Z')),
    ].join('\n');
    const written = new Map<string, Buffer>();
    const result = await processObject(
      request(body, (t, e) => void enricher.enrich(t, e)),
      { put: async (k, b) => void written.set(k, b) },
    );
    expect(result.events).toBe(3);
    const events = [...written.entries()].flatMap(([key, bytes]) =>
      gunzipSync(bytes)
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ key, event: JSON.parse(line) as Record<string, unknown> })),
    );
    const login = events.find((e) => e.event.eventName === 'ConsoleLogin')!.event;
    expect(login.p_enrichment).toEqual({
      networks: { '$.sourceIPAddress': { cidr: '203.0.113.0/28', site: 'office', owner: 'it' } },
      people: { '$.userIdentity.userName': { userName: 'alice', team: 'security' } },
    });
    expect(events.find((e) => e.event.eventName === 'GetObject')!.event.p_enrichment).toBeUndefined();
    expect(events.find((e) => e.key.includes('github_audit'))!.event.p_enrichment).toBeUndefined();
  });

  it('without an enricher the events are written as before', async () => {
    const written = new Map<string, Buffer>();
    await processObject(request(cloudTrailLine('2026-11-21T10:15:00Z')), { put: async (k, b) => void written.set(k, b) });
    const [bytes] = [...written.values()];
    expect(JSON.parse(gunzipSync(bytes).toString().split('\n')[0]).p_enrichment).toBeUndefined();
  });

  it('the lake query sees the enrichment', async () => {
    await processObject(
      request(cloudTrailLine('2026-11-21T10:15:00Z'), (t, e) => void enricher.enrich(t, e)),
      directoryLakeSink(dir),
    );
    const lake = await openLake(dir);
    const rows = await lake.query('SELECT p_enrichment FROM panther_logs.aws_cloudtrail');
    lake.close();
    expect(JSON.stringify(rows[0].p_enrichment)).toContain('office');
  });
});
