// Lookup tables against the stand-ins (dynalite, s3rver, the SQS stand-in for alert changes): an upload by
// pre-signed PUT, preview, save and "test a value"; S3-sourced tables refreshed, a failed refresh keeping the
// last good data and raising LOOKUP_TABLE_REFRESH; the processor's enricher following versions. Tables are saved
// by users whose roles hold what their sources need (an S3 object: View Raw Log Data, in a configured bucket).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAlert, type Alert } from '../../../functions/lib/alerts';
import {
  FILE_ONLY,
  createLookupTable,
  createLookupTableFromText,
  currentEnricher,
  engineLookups,
  getLookupTable,
  listLookupTables,
  lookupNamesIn,
  newUpload,
  previewUpload,
  refreshDueTables,
  refreshLookupTable,
  resetEngineLookups,
  resetEnricherCache,
  testLookupValue,
  updateLookupTable,
} from '../../../functions/lib/lookups';
import { startS3 } from '../../../local/services/s3';
import { localClientConfig } from '../../../local/services/net';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';
import { lookupBucketError, sourceOwnerError, sourcePermissionError, type LookupTableInput } from '../../../core/lookups/index';
import { testUser, type TestUser } from './users';

let stops: (() => Promise<void>)[] = [];
let changes: AlertChanges;
let s3: S3Client;
let dir: string;
const told: Alert[] = [];
const onAlert = async (alert: Alert) => void told.push(alert);
let editor: TestUser;
let rawReader: TestUser;

beforeAll(async () => {
  stops.push((await startEntityTable('lookups')).stop);
  changes = await startAlertChanges();
  dir = mkdtempSync(join(tmpdir(), 'caracal-lookups-s3-'));
  const service = await startS3(dir);
  stops.push(service.stop);
  Object.assign(process.env, { AWS_ENDPOINT_URL_S3: service.endpoint, AWS_S3_FORCE_PATH_STYLE: 'true', LAKE_BUCKET: 'lake' });
  s3 = new S3Client(localClientConfig(service.endpoint, 'us-east-1'));
  await s3.send(new CreateBucketCommand({ Bucket: 'lake' }));
  await s3.send(new CreateBucketCommand({ Bucket: 'reference' }));
  process.env.LOOKUP_BUCKETS = 'reference';
  editor = await testUser('editor@example.com', ['LookupRead', 'LookupModify']);
  rawReader = await testUser('raw-reader@example.com', ['LookupRead', 'LookupModify', 'LogSourceRawDataRead']);
});
afterAll(async () => {
  s3?.destroy();
  await changes.stop();
  for (const stop of stops.reverse()) await stop();
  stops = [];
  rmSync(dir, { recursive: true, force: true });
  delete process.env.LOOKUP_BUCKETS;
});

const CSV = 'cidr,site\n10.0.0.0/8,corp\n10.1.0.0/16,office\n2001:db8::/32,v6\nnope,bad\n';

const input = (over: Partial<LookupTableInput> = {}): LookupTableInput => ({
  name: 'networks',
  description: 'Our networks',
  primaryKey: 'cidr',
  keyType: 'CIDR',
  enabled: true,
  source: { kind: 'FILE' },
  associations: [{ logType: 'AWS.CloudTrail', selectors: ['$.sourceIPAddress'] }],
  ...over,
});

describe('file tables', () => {
  it('uploads by pre-signed PUT, previews, saves a version and answers test values', async () => {
    const upload = await newUpload();
    expect(upload.url).toContain('X-Amz-Signature=');
    const put = await fetch(upload.url, { method: 'PUT', body: CSV });
    expect(put.status).toBe(200);
    const file = { uploadId: upload.uploadId, fileName: 'networks.csv' };
    const preview = await previewUpload(file, 'cidr', 'CIDR');
    expect(preview.columns.map((c) => c.name)).toEqual(['cidr', 'site']);
    expect(preview).toMatchObject({ rowCount: 3, skippedCount: 1 });

    const table = await createLookupTable(input(), file, editor.caller);
    expect(table).toMatchObject({ status: 'READY', version: 1, rowCount: 3, name: 'networks' });
    expect(table.versions[0].objectKey).toBe(`lookups/data/${table.id}/v1.jsonl.gz`);
    expect(await testLookupValue(table.id, '10.1.9.9')).toEqual({ matched: true, row: { cidr: '10.1.0.0/16', site: 'office' } });
    expect(await testLookupValue(table.id, '2001:db8::1')).toMatchObject({ matched: true, row: { site: 'v6' } });
    expect(await testLookupValue(table.id, '192.0.2.1')).toEqual({ matched: false, row: null });
  });

  it('refuses a taken name, a missing upload, a key outside the columns, and bad selectors', async () => {
    await expect(
      createLookupTable(input(), { uploadId: '00000000-0000-4000-8000-000000000000', fileName: 'x.csv' }, editor.caller),
    ).rejects.toThrow('The uploaded file was not found: upload it again');
    const upload = await newUpload();
    await fetch(upload.url, { method: 'PUT', body: CSV });
    const file = { uploadId: upload.uploadId, fileName: 'n.csv' };
    await expect(createLookupTable(input(), file, editor.caller)).rejects.toThrow('A lookup table with this name already exists');
    await expect(createLookupTable(input({ name: 'other', primaryKey: 'ip' }), file, editor.caller)).rejects.toThrow(
      'primaryKey: The primary key must be one of the columns',
    );
    await expect(
      createLookupTable(
        input({ name: 'other', associations: [{ logType: 'AWS.CloudTrail', selectors: ['$.a[?x]'] }] }),
        file,
        editor.caller,
      ),
    ).rejects.toThrow(/associations\[0\]\.selectors\[0\]: Invalid selector/);
  });
});

describe('S3 tables and refresh', () => {
  it('refreshes into new versions; a failed refresh keeps the last good data and raises LOOKUP_TABLE_REFRESH', async () => {
    await s3.send(
      new PutObjectCommand({ Bucket: 'reference', Key: 'users.json', Body: JSON.stringify([{ user: 'ann', team: 'red' }]) }),
    );
    const table = await createLookupTable(
      input({
        name: 'users',
        primaryKey: 'user',
        keyType: 'STRING',
        source: { kind: 'S3', location: 's3://reference/users.json', refreshMinutes: 15 },
        associations: [],
      }),
      null,
      rawReader.caller,
      new Date('2026-11-24T10:00:00Z'),
    );
    expect(table).toMatchObject({ status: 'READY', version: 1, rowCount: 1 });

    await s3.send(
      new PutObjectCommand({
        Bucket: 'reference',
        Key: 'users.json',
        Body: JSON.stringify([{ user: 'ann', team: 'blue' }, { user: 'bob' }]),
      }),
    );
    // not yet due at 10:10, due at 10:20
    expect(await refreshDueTables(new Date('2026-11-24T10:10:00Z'), undefined, onAlert)).toBe(0);
    expect(await refreshDueTables(new Date('2026-11-24T10:20:00Z'), undefined, onAlert)).toBe(1);
    const second = (await getLookupTable(table.id))!;
    expect(second).toMatchObject({ version: 2, rowCount: 2, status: 'READY' });
    expect(second.versions.map((v) => v.version)).toEqual([2, 1]);

    await s3.send(new PutObjectCommand({ Bucket: 'reference', Key: 'users.json', Body: '[{"user": "ann", oops' }));
    const failed = (await refreshLookupTable(table.id, new Date('2026-11-24T10:40:00Z'), onAlert))!;
    expect(failed).toMatchObject({ status: 'REFRESH_FAILED', version: 2, rowCount: 2 });
    expect(failed.lastError).toMatch(/^JSON: /);
    expect(await testLookupValue(table.id, 'ann')).toMatchObject({ matched: true, row: { team: 'blue' } });

    await s3.send(new DeleteObjectCommand({ Bucket: 'reference', Key: 'users.json' }));
    await refreshLookupTable(table.id, new Date('2026-11-24T11:00:00Z'), onAlert);
    const raised = told.filter((a) => a.systemKind === 'LOOKUP_TABLE_REFRESH');
    expect(raised).toHaveLength(1); // the second failure joins the open alert
    expect(raised[0].title).toBe('Lookup table users could not be refreshed');
    expect(raised[0].description).toContain('The table keeps version 2 (2 rows).');
    expect((await getAlert(raised[0].id))?.eventCount).toBe(2);
    expect(changes.published().some((m) => JSON.stringify(m).includes(raised[0].id))).toBe(true);
  });
});

describe("the processor's enricher", () => {
  it('loads enabled tables with associations once, and reloads a table when its version changes', async () => {
    resetEnricherCache();
    const first = (await currentEnricher(1_000_000))!;
    expect(first.tableNames).toEqual(['networks']); // users has no associations
    const event: Record<string, unknown> = { sourceIPAddress: '10.1.2.3' };
    first.enrich('AWS.CloudTrail', event);
    expect(event.p_enrichment).toEqual({ networks: { '$.sourceIPAddress': { cidr: '10.1.0.0/16', site: 'office' } } });
    expect(await currentEnricher(1_000_500)).toBe(first); // within a minute: no read at all

    const networks = (await listLookupTables()).find((t) => t.name === 'networks')!;
    const upload = await newUpload();
    await fetch(upload.url, { method: 'PUT', body: 'cidr,site\n10.1.0.0/16,moved\n' });
    await updateLookupTable(networks.id, input(), { uploadId: upload.uploadId, fileName: 'n.csv' }, editor.caller);
    const second = (await currentEnricher(1_100_000))!;
    expect(second).not.toBe(first);
    expect(second.lookup('networks', '10.1.2.3')).toEqual({ cidr: '10.1.0.0/16', site: 'moved' });
    expect(second.lookup('networks', '10.2.0.1')).toBeUndefined();
  });
});

describe("detections' event.lookup tables", () => {
  it('names the tables content reads, and sends those tables (rows by key) for the engine', async () => {
    const content = {
      detections: [
        { id: 'A', body: "def rule(event):\n    return event.lookup('networks', event.get('ip'))\n" },
        { id: 'B', body: 'def rule(event):\n    return event.lookup("users", "ann") and event.lookup("nope", 1)\n' },
      ],
    };
    expect(lookupNamesIn(content)).toEqual(['networks', 'nope', 'users']);
    expect(lookupNamesIn({ detections: [{ id: 'C', body: 'def rule(e):\n    return True\n' }] })).toEqual([]);

    resetEngineLookups();
    const tables = (await engineLookups(lookupNamesIn(content), 2_000_000))!;
    expect(Object.keys(tables).sort()).toEqual(['networks', 'users']); // nope does not exist
    expect(tables.networks).toEqual({ keyType: 'CIDR', rows: { '10.1.0.0/16': { cidr: '10.1.0.0/16', site: 'moved' } } });
    expect(tables.users.keyType).toBe('STRING');
    expect(Object.keys(tables.users.rows).sort()).toEqual(['ann', 'bob']); // its last good version
    expect(await engineLookups([], 2_000_000)).toBeUndefined();
  });
});

describe('sources read on behalf of the user who set them (#27)', () => {
  const owners = (over: Partial<LookupTableInput> = {}) =>
    input({
      name: 'owners',
      primaryKey: 'user',
      keyType: 'STRING',
      source: { kind: 'S3', location: 's3://reference/owners.json', refreshMinutes: 15 },
      associations: [],
      ...over,
    });

  it('refuses to the door what the acting caller may not set, and a table from a bundled file reading more than it', async () => {
    await expect(createLookupTable(owners(), null, editor.caller)).rejects.toMatchObject({
      errorType: 'InvalidInput',
      fieldErrors: [{ path: 'source.kind', message: sourcePermissionError('S3', editor.caller.permissions) }],
    });
    await expect(
      createLookupTable(
        owners({ source: { kind: 'S3', location: 's3://lake/lookups/data/x.jsonl.gz', refreshMinutes: 15 } }),
        null,
        rawReader.caller,
      ),
    ).rejects.toMatchObject({
      fieldErrors: [{ path: 'source.location', message: lookupBucketError('s3://lake/x', ['reference']) }],
    });
    await expect(
      createLookupTableFromText(
        owners({ source: { kind: 'QUERY', query: 'SELECT 1 AS user', refreshMinutes: 60 } }),
        { fileName: 'o.json', text: '[{"user":"ann"}]' },
        'demo@caracal.local',
      ),
    ).rejects.toMatchObject({ fieldErrors: [{ path: 'source.kind', message: FILE_ONLY }] });
    expect((await listLookupTables()).map((t) => t.name)).not.toContain('owners');
  });

  it('the scheduled refresh stops when the setter loses the permission or the bucket is no longer allowed', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'reference', Key: 'owners.json', Body: '[{"user":"ann","team":"red"}]' }));
    const made = await createLookupTable(owners(), null, rawReader.caller, new Date('2026-11-25T10:00:00Z'));
    expect(made).toMatchObject({ status: 'READY', version: 1, sourceSetBy: rawReader.caller.id, createdBy: rawReader.caller.id });

    // an edit that keeps the object needs no raw-data permission, and keeps who set it
    const kept = await updateLookupTable(made.id, owners({ description: 'Teams' }), null, editor.caller);
    expect(kept).toMatchObject({ sourceSetBy: rawReader.caller.id, updatedBy: editor.caller.id });

    await rawReader.set(['LookupRead', 'LookupModify']);
    await refreshDueTables(new Date('2026-11-25T10:20:00Z'), undefined, onAlert);
    const lost = (await getLookupTable(made.id))!;
    expect(lost).toMatchObject({
      status: 'REFRESH_FAILED',
      version: 1,
      lastError: sourceOwnerError('S3', { enabled: true, permissions: ['LookupModify'] }),
    });
    expect(told.map((a) => a.title)).toContain('Lookup table owners could not be refreshed');

    await rawReader.set(['LookupModify', 'LogSourceRawDataRead']);
    expect(await refreshLookupTable(made.id, new Date('2026-11-25T10:40:00Z'), onAlert)).toMatchObject({
      status: 'READY',
      version: 2,
    });
    process.env.LOOKUP_BUCKETS = 'somewhere-else';
    try {
      const moved = await refreshLookupTable(made.id, new Date('2026-11-25T11:00:00Z'), onAlert);
      expect(moved).toMatchObject({
        status: 'REFRESH_FAILED',
        version: 2,
        lastError: lookupBucketError('s3://reference/x', ['somewhere-else']),
      });
    } finally {
      process.env.LOOKUP_BUCKETS = 'reference';
    }
    await rawReader.remove();
    expect((await refreshLookupTable(made.id, new Date('2026-11-25T11:20:00Z'), onAlert))?.lastError).toBe(
      sourceOwnerError('S3', null),
    );
  });
});
