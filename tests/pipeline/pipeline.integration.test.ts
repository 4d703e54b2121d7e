// The ingestion pipeline end to end through the local runtime: objects dropped into the ingest bucket (and
// announced from a customer bucket) and requests posted to HTTP sources become rows in the lake, with their
// classification failures, source figures and system alerts; bad input is refused or counted, visibly, and
// processing an object again does not duplicate its rows.
import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HMAC_TIMESTAMP_HEADER, HMAC_WINDOW_SECONDS } from '../../core/log-sources/types';
import { listAlerts } from '../../functions/lib/alerts';
import { sourceTotals } from '../../functions/lib/log-sources/repository';
import { CLOUDTRAIL, cloudTrailLine, GITHUB_AUDIT, gitHubAuditLine, UNREADABLE_LINE } from './fixtures';
import {
  announceObject,
  api,
  createHttpSource,
  createS3Source,
  createSqsSource,
  sendToSourceQueue,
  dropObject,
  eventually,
  lakeKeys,
  postToSource,
  queryLake,
  startPipelineRuntime,
  type CreatedSource,
  type PipelineRuntime,
} from './helpers';

let p: PipelineRuntime;
let trail: CreatedSource;
let customer: CreatedSource;
let bearer: CreatedSource;
let hmac: CreatedSource;
const CUSTOMER_BUCKET = 'customer-trail';
const HMAC_KEY = 'hmac-signing-key-of-thirty-two-chars-or-more';

const FAILURES = `query($sourceId: ID!, $cursor: String, $pageSize: Int) {
  classificationFailures(sourceId: $sourceId, cursor: $cursor, pageSize: $pageSize) {
    edges { cursor node { objectKey lineNumber index line error attempts { logType error } receivedAt } }
    pageInfo { endCursor hasNextPage hasPreviousPage }
  }
}`;
const ERRORS = `query($sourceId: ID!) { sourceProcessingErrors(sourceId: $sourceId) {
  corruptObjects httpUnauthenticated httpForbidden httpUnsupportedMediaType httpTooLarge httpBadRequest lastError } }`;

type Failures = {
  classificationFailures: {
    edges: {
      cursor: string;
      node: { objectKey: string; lineNumber: number; line: string; error: string; attempts: { logType: string }[] };
    }[];
    pageInfo: { endCursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
  };
};
type Errors = { sourceProcessingErrors: Record<string, number | string | null> };

const count = async (sql: string) => Number((await queryLake(p, sql))[0]?.n ?? 0);
const ingestBucket = () => p.env.INGEST_BUCKET;

beforeAll(async () => {
  p = await startPipelineRuntime();
  await p.s3.send(new CreateBucketCommand({ Bucket: CUSTOMER_BUCKET }));
  trail = await createS3Source(p, {
    label: 'Org trail',
    bucket: ingestBucket(),
    prefix: 'cloudtrail/',
    excludedPrefixes: ['cloudtrail/digest/'],
    logTypes: [CLOUDTRAIL],
  });
  customer = await createS3Source(p, { label: 'Customer trail', bucket: CUSTOMER_BUCKET, prefix: '', logTypes: [CLOUDTRAIL] });
  bearer = await createHttpSource(p, {
    label: 'GitHub webhook',
    logTypes: [GITHUB_AUDIT],
    authType: 'Bearer',
    secret: 'top-secret-token',
  });
  hmac = await createHttpSource(p, {
    label: 'Signed feed',
    logTypes: [GITHUB_AUDIT, CLOUDTRAIL],
    authType: 'HMAC',
    hmacAlgorithm: 'sha256',
    signatureHeader: 'x-signature',
    secret: HMAC_KEY,
  });
});
afterAll(async () => {
  await p?.stop();
});

describe('S3 objects', () => {
  const key = 'cloudtrail/2026/11/21/trail-1.json.gz';
  const lines = [
    cloudTrailLine('2026-11-21T10:15:00Z', 'ConsoleLogin'),
    cloudTrailLine('2026-11-21T10:45:00Z', 'GetObject'),
    UNREADABLE_LINE,
    cloudTrailLine('2026-11-21T11:05:00Z', 'DeleteTrail'),
  ];

  it('become lake rows partitioned by log type and event hour, with the p_* fields', async () => {
    await dropObject(p, ingestBucket(), key, gzipSync(lines.join('\n')));
    const keys = await eventually(
      () => lakeKeys(p, 'aws_cloudtrail'),
      (k) => k.length >= 2,
    );
    expect(keys.map((k) => k.replace(/[0-9a-f]{32}-\d{4}/, 'ID'))).toEqual([
      'panther_logs/aws_cloudtrail/year=2026/month=11/day=21/hour=10/ID.json.gz',
      'panther_logs/aws_cloudtrail/year=2026/month=11/day=21/hour=11/ID.json.gz',
    ]);
    const rows = await queryLake(
      p,
      `SELECT eventName, p_log_type, p_source_id, p_source_label, p_row_id, p_event_time, "hour" FROM panther_logs.aws_cloudtrail
       WHERE p_source_id = '${trail.id}' ORDER BY p_event_time`,
    );
    expect(rows.map((r) => [r.eventName, r.hour])).toEqual([
      ['ConsoleLogin', 10],
      ['GetObject', 10],
      ['DeleteTrail', 11],
    ]);
    expect(rows[0]).toMatchObject({ p_log_type: CLOUDTRAIL, p_source_label: 'Org trail' });
    expect(new Set(rows.map((r) => r.p_row_id)).size).toBe(3);
  });

  it('keep the lines no schema reads, newest first, with the reasons; counted in the figures and raised once', async () => {
    const data = await eventually(
      () => api<Failures>(p, FAILURES, { sourceId: trail.id }),
      (d) => d.classificationFailures.edges.length > 0,
    );
    const [failure] = data.classificationFailures.edges.map((e) => e.node);
    expect(failure).toMatchObject({ objectKey: key, lineNumber: 3, line: UNREADABLE_LINE, attempts: [{ logType: CLOUDTRAIL }] });
    expect(failure.error).toMatch(/invalid JSON/);
    const totals = await sourceTotals(trail.id);
    expect(totals).toMatchObject({ events: 3, classificationFailures: 1 });
    expect(totals.lastEventAt).not.toBeNull();
    const alerts = await listAlerts({ type: 'SYSTEM_ERROR' }, 50);
    expect(alerts.items.filter((a) => a.systemKind === 'SOURCE_CLASSIFICATION_FAILURES' && a.sourceId === trail.id)).toHaveLength(
      1,
    );
  });

  it('announced again (S3 delivers notifications at least once) are skipped: no duplicate rows, figures or alerts', async () => {
    const before = await lakeKeys(p, 'aws_cloudtrail');
    await announceObject(p, ingestBucket(), key);
    await eventually(
      async () => p.runtime.logs.some((l) => l.includes(`${key} (ETag`) && l.includes('was processed already')),
      (seen) => seen,
    );
    expect(await lakeKeys(p, 'aws_cloudtrail')).toEqual(before);
    const n = await count(`SELECT count(*) AS n FROM panther_logs.aws_cloudtrail WHERE p_source_id = '${trail.id}'`);
    expect(n).toBe(3);
    expect(await sourceTotals(trail.id)).toMatchObject({ events: 3, classificationFailures: 1 });
    const failures = await api<Failures>(p, FAILURES, { sourceId: trail.id });
    expect(failures.classificationFailures.edges).toHaveLength(1);
  });

  it('from a customer bucket, announced by its S3 notification, are read from that bucket', async () => {
    await dropObject(p, CUSTOMER_BUCKET, 'AWSLogs/trail.json', cloudTrailLine('2026-11-20T23:59:59Z', 'StopLogging'));
    await announceObject(p, CUSTOMER_BUCKET, 'AWSLogs/trail.json');
    const rows = await eventually(
      async () =>
        (await lakeKeys(p, 'aws_cloudtrail')).length >= 3
          ? queryLake(p, `SELECT eventName, "day", "hour" FROM panther_logs.aws_cloudtrail WHERE p_source_id = '${customer.id}'`)
          : [],
      (r) => r.length > 0,
    );
    expect(rows).toEqual([{ eventName: 'StopLogging', day: 20, hour: 23 }]);
  });

  it('in a prefix no source claims (or an excluded prefix) are counted for the bucket and logged, not lost', async () => {
    await dropObject(p, ingestBucket(), 'elsewhere/unknown.log', 'nobody reads this');
    await dropObject(p, ingestBucket(), 'cloudtrail/digest/d.json', cloudTrailLine('2026-11-21T10:00:00Z'));
    const data = await eventually(
      () =>
        api<{ unmatchedObjects: { bucket: string; objects: number; lastKey: string }[] }>(
          p,
          '{ unmatchedObjects { bucket objects lastKey lastAt } }',
        ),
      (d) => (d.unmatchedObjects.find((u) => u.bucket === ingestBucket())?.objects ?? 0) >= 2,
    );
    expect(data.unmatchedObjects.find((u) => u.bucket === ingestBucket())?.objects).toBe(2);
    expect(p.runtime.logs.some((l) => l.includes('unmatched object') && l.includes('elsewhere/unknown.log'))).toBe(true);
  });

  it('with corrupt gzip are counted for the source and raise SOURCE_LOG_PROCESSING_ERRORS, the rest of the batch going on', async () => {
    const good = gzipSync(cloudTrailLine('2026-11-21T12:00:00Z', 'AfterCorruption'));
    await dropObject(
      p,
      ingestBucket(),
      'cloudtrail/broken.json.gz',
      Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.from('not deflate at all')]),
    );
    await dropObject(p, ingestBucket(), 'cloudtrail/after.json.gz', good);
    const errors = await eventually(
      () => api<Errors>(p, ERRORS, { sourceId: trail.id }),
      (d) => d.sourceProcessingErrors.corruptObjects === 1,
    );
    expect(errors.sourceProcessingErrors.lastError).toMatch(/^cloudtrail\/broken\.json\.gz: corrupt gzip/);
    const after = await eventually(
      () => count(`SELECT count(*) AS n FROM panther_logs.aws_cloudtrail WHERE eventName = 'AfterCorruption'`),
      (n) => n === 1,
    );
    expect(after).toBe(1);
    const alerts = await listAlerts({ type: 'SYSTEM_ERROR' }, 50);
    expect(alerts.items.some((a) => a.systemKind === 'SOURCE_LOG_PROCESSING_ERRORS' && a.sourceId === trail.id)).toBe(true);
  });
});

describe('partial batch failures', () => {
  it('report only the message that cannot be read, so the others are not retried', async () => {
    const processor = [...p.runtime.functions.values()].find((f) =>
      f.spec.logicalId.startsWith('ProcessingLogProcessorFunction'),
    )!;
    const notification = {
      Records: [
        {
          eventName: 'ObjectCreated:Put',
          eventTime: new Date().toISOString(),
          s3: { bucket: { name: ingestBucket() }, object: { key: 'elsewhere/batch.log' } },
        },
      ],
    };
    const outcome = await processor.invoke({
      Records: [
        { messageId: 'good', body: JSON.stringify(notification), eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:ingest' },
        { messageId: 'bad', body: 'not an S3 notification', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:ingest' },
      ],
    });
    expect(outcome).toMatchObject({ ok: true, result: { batchItemFailures: [{ itemIdentifier: 'bad' }] } });
  });
});

describe('HTTP ingest', () => {
  const auth = { authorization: 'Bearer top-secret-token' };
  const ndjson = { 'content-type': 'application/x-ndjson' };

  it("serves each HTTP source's endpoint on the runtime's origin", () => {
    expect(bearer.endpointUrl).toBe(`${p.runtime.url}/ingest/${bearer.id}`);
  });

  it('accepts authenticated posts, plain or gzip, and their events reach the lake', async () => {
    const t = Date.parse('2026-11-21T09:30:00Z');
    const plain = await postToSource(
      p,
      bearer.endpointUrl!,
      [gitHubAuditLine(t, 'repo.create'), gitHubAuditLine(t, 'repo.destroy')].join('\n'),
      { ...ndjson, ...auth },
    );
    expect(plain).toMatchObject({ status: 200, body: { status: 'accepted' } });
    const zipped = await postToSource(p, bearer.id, gzipSync(gitHubAuditLine(t, 'team.add_member')), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      ...auth,
    });
    expect(zipped.status).toBe(200);
    const rows = await eventually(
      async () =>
        (await lakeKeys(p, 'github_audit')).length
          ? queryLake(p, `SELECT action, p_source_id FROM panther_logs.github_audit ORDER BY action`)
          : [],
      (r) => r.length >= 3,
    );
    expect(rows).toEqual([
      { action: 'repo.create', p_source_id: bearer.id },
      { action: 'repo.destroy', p_source_id: bearer.id },
      { action: 'team.add_member', p_source_id: bearer.id },
    ]);
    await eventually(
      async () => (await sourceTotals(bearer.id)).events,
      (n) => n === 3,
    );
    expect((await sourceTotals(bearer.id)).events).toBe(3);
  });

  it('checks HMAC signatures of the timestamp and raw body: a good one is accepted, a bad one refused with 403, a replay with 401', async () => {
    const body = cloudTrailLine('2026-11-21T08:00:00Z', 'SignedCall');
    const signedAt = (seconds: number) => {
      const timestamp = String(seconds);
      const signature = createHmac('sha256', HMAC_KEY).update(`${timestamp}.${body}`).digest('hex');
      return { ...ndjson, [HMAC_TIMESTAMP_HEADER]: timestamp, 'x-signature': `sha256=${signature}` };
    };
    const now = Math.floor(Date.now() / 1000);
    expect((await postToSource(p, hmac.id, body, signedAt(now))).status).toBe(200);
    const forged = await postToSource(p, hmac.id, body, { ...signedAt(now), 'x-signature': `sha256=${'0'.repeat(64)}` });
    expect(forged).toEqual({ status: 403, body: { error: 'Forbidden', message: 'Invalid credentials' } });
    const unsigned = await postToSource(p, hmac.id, body, ndjson);
    expect(unsigned).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
    // A request captured an hour ago, sent again: its signature is genuine, its timestamp too old.
    const replayed = await postToSource(p, hmac.id, body, signedAt(now - 3600));
    expect(replayed).toMatchObject({ status: 401, body: { error: 'Unauthorized', message: expect.stringContaining('within') } });
    expect(HMAC_WINDOW_SECONDS).toBeLessThan(3600);
    await eventually(
      () => count(`SELECT count(*) AS n FROM panther_logs.aws_cloudtrail WHERE eventName = 'SignedCall'`),
      (n) => n === 1,
    );
  });

  it('refuses bad requests with a JSON error each, counted for the source', async () => {
    const line = gitHubAuditLine(Date.parse('2026-11-21T09:30:00Z'));
    expect(await postToSource(p, bearer.id, line, ndjson)).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
    expect(await postToSource(p, bearer.id, line, { ...ndjson, authorization: 'Bearer wrong' })).toMatchObject({
      status: 403,
      body: { error: 'Forbidden' },
    });
    expect(await postToSource(p, bearer.id, '<xml/>', { 'content-type': 'application/xml', ...auth })).toMatchObject({
      status: 415,
      body: { error: 'UnsupportedMediaType' },
    });
    expect(await postToSource(p, bearer.id, line, { ...ndjson, 'content-encoding': 'br', ...auth })).toMatchObject({
      status: 415,
    });
    const big = 'x'.repeat(5 * 1024 * 1024 + 10);
    expect(await postToSource(p, bearer.id, big, { ...ndjson, ...auth })).toMatchObject({
      status: 413,
      body: { error: 'PayloadTooLarge' },
    });
    expect(await postToSource(p, bearer.id, '', { ...ndjson, ...auth })).toMatchObject({
      status: 400,
      body: { error: 'BadRequest' },
    });
    const errors = await api<Errors>(p, ERRORS, { sourceId: bearer.id });
    expect(errors.sourceProcessingErrors).toMatchObject({
      httpUnauthenticated: 1,
      httpForbidden: 1,
      httpUnsupportedMediaType: 2,
      httpTooLarge: 1,
      httpBadRequest: 1,
    });
  });

  it('refuses requests over the function URL limit before the function, and unknown sources with 404', async () => {
    const huge = await postToSource(p, bearer.id, 'x'.repeat(6 * 1024 * 1024 + 1), { ...ndjson, ...auth });
    expect(huge).toEqual({ status: 413, body: { message: 'Request Entity Too Large' } });
    const unknown = await postToSource(p, '00000000-0000-4000-8000-000000000000', '{}', ndjson);
    expect(unknown).toMatchObject({ status: 404, body: { error: 'NotFound' } });
  });
});

describe('SQS sources', () => {
  it("are connected to the log processor, which hands their queue's messages over, events reaching the lake", async () => {
    const source = await createSqsSource(p, { label: 'Queue feed', logTypes: [CLOUDTRAIL] });
    const sns = {
      Type: 'Notification',
      TopicArn: 'arn:aws:sns:us-east-1:123456789012:feed',
      Message: cloudTrailLine('2026-11-21T07:00:00Z', 'ViaSns'),
    };
    await sendToSourceQueue(p, source.queueUrl, [cloudTrailLine('2026-11-21T07:00:00Z', 'ViaQueue'), JSON.stringify(sns)]);
    const rows = await eventually(
      () =>
        queryLake(p, `SELECT eventName FROM panther_logs.aws_cloudtrail WHERE p_source_id = '${source.id}' ORDER BY eventName`),
      (r) => r.length >= 2,
    );
    expect(rows).toEqual([{ eventName: 'ViaQueue' }, { eventName: 'ViaSns' }]);
  });
});

describe('custom schemas', () => {
  const CREATE_SCHEMA = 'mutation($input: CreateSchemaInput!) { createSchema(input: $input) { name revision } }';

  it('read lines by their parser, a Python script parser running in the detection engine', async () => {
    await api(p, CREATE_SCHEMA, {
      input: {
        name: 'Custom.Door',
        spec: `parser:
  script:
    function: |
      def parse(log):
          if log.startswith('#'):
              return None
          when, door, badge = log.split(' ')
          return {'time': when, 'door': door, 'badge': badge}
fields:
  - name: time
    type: timestamp
    timeFormats: [rfc3339]
    isEventTime: true
    required: true
  - name: door
    type: string
    required: true
  - name: badge
    type: string
`,
      },
    });
    await api(p, CREATE_SCHEMA, {
      input: {
        name: 'Custom.Vpn',
        spec: `parser:
  fastmatch:
    match: ['%{time} vpn %{user} from %{ip}']
fields:
  - name: time
    type: timestamp
    timeFormats: [rfc3339]
    isEventTime: true
    required: true
  - name: user
    type: string
    required: true
  - name: ip
    type: string
    indicators: [ip]
`,
      },
    });
    const source = await createHttpSource(p, {
      label: 'Building',
      logTypes: ['Custom.Vpn', 'Custom.Door'],
      authType: 'None',
      streamType: 'Lines',
    });
    const body = [
      '# door log',
      '2026-11-21T06:00:00Z lobby b-17',
      '2026-11-21T06:05:00Z vpn carol from 198.51.100.4',
      'one two',
    ].join('\n');
    expect((await postToSource(p, source.id, body, { 'content-type': 'text/plain' })).status).toBe(200);
    const doors = await eventually(
      async () =>
        (await lakeKeys(p, 'custom_door')).length
          ? queryLake(p, 'SELECT door, badge, p_log_type, "hour" FROM panther_logs.custom_door')
          : [],
      (r) => r.length > 0,
      60_000,
    );
    expect(doors).toEqual([{ door: 'lobby', badge: 'b-17', p_log_type: 'Custom.Door', hour: 6 }]);
    const vpn = await queryLake(p, 'SELECT "user", p_any_ip_addresses FROM panther_logs.custom_vpn');
    expect(vpn).toEqual([{ user: 'carol', p_any_ip_addresses: ['198.51.100.4'] }]);
    const failures = await eventually(
      () => api<Failures>(p, FAILURES, { sourceId: source.id }),
      (d) => d.classificationFailures.edges.length > 0,
    );
    expect(failures.classificationFailures.edges.map((e) => [e.node.lineNumber, e.node.attempts.map((a) => a.logType)])).toEqual([
      [4, ['Custom.Vpn', 'Custom.Door']],
    ]);
  });
});

describe('the classification failures API', () => {
  it('pages newest first with cursors, and refuses a bad cursor, page size or source', async () => {
    const lines = Array.from({ length: 5 }, (_, i) => `not json ${i}`).join('\n');
    await dropObject(p, ingestBucket(), 'cloudtrail/garbage.log', lines);
    const all = await eventually(
      () => api<Failures>(p, FAILURES, { sourceId: trail.id, pageSize: 100 }),
      (d) => d.classificationFailures.edges.length >= 6,
    );
    expect(all.classificationFailures.edges[0].node.objectKey).toBe('cloudtrail/garbage.log');
    const first = await api<Failures>(p, FAILURES, { sourceId: trail.id, pageSize: 4 });
    expect(first.classificationFailures.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await api<Failures>(p, FAILURES, {
      sourceId: trail.id,
      pageSize: 4,
      cursor: first.classificationFailures.pageInfo.endCursor,
    });
    const seen = [...first.classificationFailures.edges, ...second.classificationFailures.edges].map(
      (e) => `${e.node.objectKey}:${e.node.lineNumber}`,
    );
    expect(seen).toEqual(all.classificationFailures.edges.map((e) => `${e.node.objectKey}:${e.node.lineNumber}`));
    const refusals = [
      { sourceId: trail.id, cursor: 'garbage' },
      { sourceId: trail.id, pageSize: 0 },
      { sourceId: '00000000-0000-4000-8000-000000000000' },
    ];
    for (const variables of refusals) await expect(api(p, FAILURES, variables)).rejects.toThrow(/InvalidInput|NotFound/);
  });
});
