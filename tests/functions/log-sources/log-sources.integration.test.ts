// The log sources API against the local runtime: create, read, list, update and delete per transport,
// refusals with the specification's messages, secrets never returned, the queue of an SQS source, paging
// over a seeded bucket with View bucket data, ingestion figures, and the health check raising SOURCE_NO_DATA
// once per occurrence.
import { gzipSync } from 'node:zlib';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { LambdaClient, ListEventSourceMappingsCommand } from '@aws-sdk/client-lambda';
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClientConfig } from '../../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../../local/harness';
import { useApiFunctionEnvironment } from '../notifications/runtime-env';

type Repository = typeof import('../../../functions/lib/log-sources/repository');
type HttpAuth = typeof import('../../../functions/lib/log-sources/http-auth');

let runtime: TestRuntime;
let token: string;
let repository: Repository;
let httpAuth: HttpAuth;
let s3: S3Client;
let sqs: SQSClient;
let s3SourceId: string;

const BUCKET = 'customer-logs';
const SOURCE = `id label transport logTypes streamType jsonArrayEnvelopeField enabled createdBy updatedBy
  s3 { bucket kmsKey roleArn prefixes { prefix excludedPrefixes logTypes } }
  sqs { queueUrl queueArn allowedPrincipalArns allowedSourceArns }
  http { authType username headerName hmacAlgorithm signatureHeader secret endpointUrl }
  health { status lastEventAt }`;

beforeAll(async () => {
  runtime = await startTestRuntime();
  useApiFunctionEnvironment(runtime);
  repository = await import('../../../functions/lib/log-sources/repository');
  httpAuth = await import('../../../functions/lib/log-sources/http-auth');
  const [admin] = runtime.createdUsers;
  token = (await signIn(runtime, admin.username, admin.temporaryPassword, 'Correct-Horse-42-Battery')).idToken;
  s3 = new S3Client(localClientConfig(runtime.endpoints.s3, runtime.stack.region));
  sqs = new SQSClient(localClientConfig(runtime.endpoints.sqs, runtime.stack.region));
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  for (let i = 0; i < 12; i++) {
    const body = [1, 2, 3].map((n) => JSON.stringify({ eventName: `Event${i}-${n}`, padding: 'x'.repeat(400) })).join('\n');
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `cloudtrail/${String(i).padStart(2, '0')}.json.gz`, Body: gzipSync(body) }),
    );
  }
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'cloudtrail/broken.gz', Body: Buffer.from([0x1f, 0x8b, 1, 2, 3]) }));
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'elsewhere/a.log', Body: 'not read' }));
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'cloudtrail/digest/d.json', Body: '{"digest":true}' }));
});
afterAll(async () => {
  s3?.destroy();
  sqs?.destroy();
  await runtime?.stop();
});

async function call(query: string, variables: Record<string, unknown> = {}) {
  const { body } = await graphql(runtime, { query, variables }, token);
  return body;
}

async function ok<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await call(query, variables);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

const errorOf = (body: { errors?: Array<Record<string, unknown>> }) => ({
  type: body.errors?.[0]?.errorType,
  message: String(body.errors?.[0]?.message ?? ''),
});

const CREATE_S3 = `mutation($input: S3LogSourceInput!) { createS3LogSource(input: $input) { ${SOURCE} } }`;
const UPDATE_S3 = `mutation($id: ID!, $input: S3LogSourceInput!) { updateS3LogSource(id: $id, input: $input) { ${SOURCE} } }`;
const CREATE_HTTP = `mutation($input: HttpLogSourceInput!) { createHttpLogSource(input: $input) { ${SOURCE} } }`;
const UPDATE_HTTP = `mutation($id: ID!, $input: HttpLogSourceInput!) { updateHttpLogSource(id: $id, input: $input) { ${SOURCE} } }`;
const CREATE_SQS = `mutation($input: SqsLogSourceInput!) { createSqsLogSource(input: $input) { ${SOURCE} } }`;
const DELETE = 'mutation($id: ID!) { deleteLogSource(id: $id) { id } }';
const LIST = `query($input: LogSourcesInput) { logSources(input: $input) { edges { node { id label transport } } pageInfo { endCursor hasNextPage } } }`;

const s3Input = (label: string) => ({
  label,
  bucket: BUCKET,
  prefixes: [{ prefix: 'cloudtrail/', excludedPrefixes: ['cloudtrail/digest/'], logTypes: ['AWS.CloudTrail'] }],
});

type Source = { id: string; label: string; http: { secret: string | null; endpointUrl: string | null } } & Record<
  string,
  unknown
>;

describe('S3 sources', () => {
  let id: string;

  it('offers the managed log types to pick from', async () => {
    const data = await ok<{ listAvailableLogTypes: { logTypes: { name: string; managed: boolean }[] } }>(
      '{ listAvailableLogTypes { logTypes { name managed } crowdstrikeFdrEnabled } }',
    );
    expect(data.listAvailableLogTypes.logTypes).toContainEqual({ name: 'AWS.CloudTrail', managed: true });
  });

  it('creates, reads, lists and updates a source', async () => {
    const created = (await ok<{ createS3LogSource: Source }>(CREATE_S3, { input: s3Input('Org CloudTrail') })).createS3LogSource;
    id = created.id;
    s3SourceId = id;
    expect(created).toMatchObject({
      label: 'Org CloudTrail',
      transport: 'AWS_S3',
      logTypes: ['AWS.CloudTrail'],
      streamType: 'Auto',
      enabled: true,
      createdBy: 'admin@caracal.local',
      s3: { bucket: BUCKET, kmsKey: null, roleArn: null },
      health: { status: 'HEALTHY', lastEventAt: null },
    });
    const checks = await ok<{ sourceHealth: { checks: { name: string; status: string }[] } }>(
      `query($id: ID!) { sourceHealth(id: $id) { checks { name status } } }`,
      { id },
    );
    expect(checks.sourceHealth.checks.map((c) => `${c.name}:${c.status}`)).toEqual([
      's3BucketLocationStatus:OK',
      's3BucketStatus:OK',
      'kmsKeyStatus:SKIPPED',
      'dataReceivedStatus:SKIPPED',
    ]);
    const read = await ok<{ logSource: Source }>(`query($id: ID!) { logSource(id: $id) { ${SOURCE} } }`, { id });
    expect(read.logSource.label).toBe('Org CloudTrail');
    const listed = await ok<{ logSources: { edges: { node: Source }[] } }>(LIST, { input: { transport: 'AWS_S3' } });
    expect(listed.logSources.edges.map((e) => e.node.id)).toContain(id);
    const updated = await ok<{ updateS3LogSource: Source }>(UPDATE_S3, {
      id,
      input: { ...s3Input('Org CloudTrail 2'), roleArn: 'arn:aws-us-gov:iam::123456789012:role/Reader' },
    });
    expect(updated.updateS3LogSource).toMatchObject({
      label: 'Org CloudTrail 2',
      s3: { roleArn: 'arn:aws-us-gov:iam::123456789012:role/Reader' },
    });
    await ok(UPDATE_S3, { id, input: s3Input('Org CloudTrail') });
  });

  it('finds the source of an object by its longest prefix, honouring excluded prefixes', async () => {
    expect((await repository.sourceForObject(BUCKET, 'cloudtrail/a.json'))?.source.id).toBe(id);
    expect(await repository.sourceForObject(BUCKET, 'cloudtrail/digest/a.json')).toBeUndefined();
    expect(await repository.sourceForObject(BUCKET, 'elsewhere/a.log')).toBeUndefined();
  });

  it('refuses a label already used by a source of the same transport, not of another', async () => {
    const body = await call(CREATE_S3, { input: s3Input('org cloudtrail') });
    expect(errorOf(body)).toEqual({ type: 'AlreadyExists', message: 'You already have an AWS S3 source with the same label' });
    const http = await ok<{ createHttpLogSource: Source }>(CREATE_HTTP, {
      input: { label: 'Org CloudTrail', logTypes: ['AWS.CloudTrail'], authType: 'None' },
    });
    await ok(DELETE, { id: http.createHttpLogSource.id });
  });

  it('refuses bad input with the specification messages and writes nothing', async () => {
    const before = (await ok<{ logSources: { edges: unknown[] } }>(LIST)).logSources.edges.length;
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...s3Input('Bad'), prefixes: [{ prefix: '*', excludedPrefixes: [], logTypes: ['AWS.CloudTrail'] }] },
        "'*' is not acceptable, leave empty to include all",
      ],
      [
        { ...s3Input('Bad'), prefixes: [{ prefix: '/logs', excludedPrefixes: [], logTypes: ['AWS.CloudTrail'] }] },
        "Prefix must not start with '/'",
      ],
      [{ ...s3Input('Bad'), prefixes: [] }, 'prefixes: At least 1 prefix is required'],
      [
        { ...s3Input('Bad'), prefixes: [{ prefix: 'a/', excludedPrefixes: ['b/'], logTypes: ['AWS.CloudTrail'] }] },
        'Excluded prefix must start with the included prefix',
      ],
      [
        { ...s3Input('Bad'), prefixes: [{ prefix: 'a/', excludedPrefixes: [], logTypes: [] }] },
        'At least 1 log type is required',
      ],
      [
        {
          ...s3Input('Bad'),
          prefixes: [{ prefix: 'a/', excludedPrefixes: [], logTypes: ['AWS.SecurityFindingFormat', 'AWS.CloudTrail'] }],
        },
        'AWS.SecurityFindingFormat cannot be combined with other log types',
      ],
      [
        { ...s3Input('Bad'), prefixes: [{ prefix: 'a/', excludedPrefixes: [], logTypes: ['Crowdstrike.FDREvent'] }] },
        'not enabled yet in this instance, please contact support',
      ],
      [
        { ...s3Input('Bad'), prefixes: [{ prefix: 'a/', excludedPrefixes: [], logTypes: ['Crowdstrike.Unknown'] }] },
        'Crowdstrike.Unknown is deprecated',
      ],
      [
        { ...s3Input('Bad'), prefixes: [{ prefix: 'a/', excludedPrefixes: [], logTypes: ["x'; DROP TABLE"] }] },
        "Unknown log type: x'; DROP TABLE",
      ],
      [
        { ...s3Input('<script>'), bucket: 'Bad_Bucket' },
        'label: Can only include alphanumeric characters, dashes and spaces; bucket: Must be a valid S3 bucket name',
      ],
      [{ ...s3Input('x'.repeat(100_000)) }, 'label: Must be at most 36 characters'],
      [{ ...s3Input('Bad'), roleArn: 'arn:aws:iam::1234:role/R' }, 'roleArn: Must be a valid IAM role ARN'],
      [
        { ...s3Input('Bad'), bucket: process.env.PRIVATE_BUCKETS!.split(',')[0] },
        "bucket: This bucket holds Caracal's own data and cannot be read as a log source",
      ],
    ];
    for (const [input, message] of cases) {
      const body = await call(CREATE_S3, { input });
      expect(errorOf(body).type, message).toBe('InvalidInput');
      expect(errorOf(body).message).toContain(message);
    }
    expect((await ok<{ logSources: { edges: unknown[] } }>(LIST)).logSources.edges.length).toBe(before);
  });

  it('previews the bucket page by page with each object’s first events and errors', async () => {
    const query = `query($input: ViewBucketDataInput!) { viewBucketData(input: $input) { data { s3Key event error } pageInfo { hasNextPage paginationToken } } }`;
    const keys = new Set<string>();
    const errors: { s3Key: string; error: string }[] = [];
    let paginationToken: string | null = null;
    let pages = 0;
    do {
      const data: {
        viewBucketData: {
          data: { s3Key: string; event: string | null; error: string | null }[];
          pageInfo: { hasNextPage: boolean; paginationToken: string | null };
        };
      } = await ok(query, { input: { sourceId: id, filters: { prefix: 'cloudtrail/' }, pageSize: 5, paginationToken } });
      pages++;
      for (const record of data.viewBucketData.data) {
        keys.add(record.s3Key);
        if (record.error) errors.push({ s3Key: record.s3Key, error: record.error });
        else expect(JSON.parse(record.event!).eventName).toMatch(/^Event\d+-\d$/);
      }
      paginationToken = data.viewBucketData.pageInfo.hasNextPage ? data.viewBucketData.pageInfo.paginationToken : null;
    } while (paginationToken);
    expect(pages).toBe(3);
    expect(keys.size).toBe(13);
    expect(errors.map((e) => e.s3Key)).toEqual(['cloudtrail/broken.gz']);
    for (const prefix of ['elsewhere/', '', 'cloud']) {
      const outside = await call(query, { input: { sourceId: id, filters: { prefix } } });
      expect(errorOf(outside)).toEqual({
        type: 'InvalidInput',
        message: "filters.prefix: Must start with one of this source's prefixes",
      });
      expect(JSON.stringify(outside)).not.toContain('elsewhere/a.log');
    }
    const excluded = await ok<{ viewBucketData: { data: unknown[] } }>(query, {
      input: { sourceId: id, filters: { prefix: 'cloudtrail/digest/' } },
    });
    expect(excluded.viewBucketData.data).toEqual([]);
    const refused = await call(query, { input: { sourceId: id, filters: { prefix: 'cloudtrail/' }, pageSize: 5000 } });
    expect(errorOf(refused)).toEqual({ type: 'InvalidInput', message: 'pageSize must be a whole number from 1 to 50' });
  });

  it('sets the log stream type, clearing the enclosing field when not a JSON array', async () => {
    const SET = `mutation($input: SetLogStreamTypeInput!) { setLogStreamType(input: $input) { streamType jsonArrayEnvelopeField } }`;
    expect(
      (
        await ok<{ setLogStreamType: unknown }>(SET, {
          input: { sourceId: id, streamType: 'JsonArray', jsonArrayEnvelopeField: 'Records' },
        })
      ).setLogStreamType,
    ).toEqual({
      streamType: 'JsonArray',
      jsonArrayEnvelopeField: 'Records',
    });
    expect(
      (await ok<{ setLogStreamType: unknown }>(SET, { input: { sourceId: id, streamType: 'Lines' } })).setLogStreamType,
    ).toEqual({
      streamType: 'Lines',
      jsonArrayEnvelopeField: null,
    });
    const refused = await call(SET, { input: { sourceId: id, streamType: 'JsonArray', jsonArrayEnvelopeField: 'has space' } });
    expect(errorOf(refused).message).toBe('jsonArrayEnvelopeField: Must be a field name without spaces or control characters');
  });

  it('counts ingestion per hour and moves the last event forward only', async () => {
    const now = new Date();
    await repository.recordIngestion(id, { events: 10, bytes: 1000, classificationFailures: 1, lastEventAt: now.toISOString() });
    await repository.recordIngestion(id, {
      events: 5,
      bytes: 500,
      classificationFailures: 0,
      lastEventAt: new Date(now.getTime() - 7_200_000).toISOString(),
    });
    const data = await ok<{
      sourceHealth: { lastEventAt: string; totals: Record<string, number>; hourly: { events: number }[] };
    }>(
      `query($id: ID!) { sourceHealth(id: $id) { lastEventAt totals { events bytes classificationFailures } hourly { hour events bytes } } }`,
      { id },
    );
    expect(data.sourceHealth.totals).toEqual({ events: 15, bytes: 1500, classificationFailures: 1 });
    expect(data.sourceHealth.lastEventAt).toBe(now.toISOString());
    expect(data.sourceHealth.hourly).toHaveLength(24);
    expect(data.sourceHealth.hourly[23].events).toBe(10);
    expect(data.sourceHealth.hourly[21].events).toBe(5);
  });
});

describe('errors nobody raised on purpose', () => {
  it('reach the caller as a generic ServerError, their DynamoDB text only in the log', async () => {
    // A cursor of the right form whose key DynamoDB refuses (a page start that names no index keys).
    const after = Buffer.from(JSON.stringify({ pk: 'SOURCE#LIST' }), 'utf8').toString('base64url');
    const body = await call(LIST, { input: { after } });
    expect(body.errors).toEqual([
      expect.objectContaining({ errorType: 'ServerError', message: 'An unexpected server error has occurred' }),
    ]);
    expect(JSON.stringify(body)).not.toMatch(/ValidationException|starting key|gsi1|SOURCE#/);
    expect(runtime.logs.join('\n')).toMatch(/Query\.logSources failed for caller [\w-]+[\s\S]*ValidationException/);
  });
});

describe('HTTP sources', () => {
  it('never returns the secret, keeps it on update and checks requests against its hash', async () => {
    const created = (
      await ok<{ createHttpLogSource: Source }>(CREATE_HTTP, {
        input: { label: 'Webhook', logTypes: ['AWS.CloudTrail'], authType: 'Bearer', secret: 'top-secret-token' },
      })
    ).createHttpLogSource;
    expect(created.http.secret).toBe('********');
    expect(created.http.endpointUrl ?? 'pending').toMatch(new RegExp(`(/${created.id}|pending)$`));
    expect(JSON.stringify(created)).not.toContain('top-secret-token');
    const kept = await ok<{ updateHttpLogSource: Source }>(UPDATE_HTTP, {
      id: created.id,
      input: { label: 'Webhook', logTypes: ['AWS.CloudTrail'], authType: 'Bearer', secret: '********' },
    });
    expect(kept.updateHttpLogSource.http.secret).toBe('********');
    const stored = (await repository.getSource(created.id))!;
    expect(JSON.stringify(stored)).not.toContain('top-secret-token');
    expect(stored.secret).toMatchObject({ kind: 'scrypt' });
    const now = new Date();
    expect(httpAuth.verifyHttpAuth(stored, { headers: { Authorization: 'Bearer top-secret-token' }, body: '{}', now })).toEqual({
      ok: true,
    });
    expect(httpAuth.verifyHttpAuth(stored, { headers: { authorization: 'Bearer nope' }, body: '{}', now })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(httpAuth.verifyHttpAuth(stored, { headers: {}, body: '{}', now })).toMatchObject({ ok: false, status: 401 });
    const switched = await call(UPDATE_HTTP, {
      id: created.id,
      input: { label: 'Webhook', logTypes: ['AWS.CloudTrail'], authType: 'SharedSecret', headerName: 'X-Key' },
    });
    expect(errorOf(switched)).toEqual({ type: 'InvalidInput', message: 'secret: This field is required' });
  });

  it('lets in the sender of a secret kept by an earlier version (salted SHA-256), then keeps it as scrypt', async () => {
    const { createHash } = await import('node:crypto');
    const created = (
      await ok<{ createHttpLogSource: Source }>(CREATE_HTTP, {
        input: { label: 'Old webhook', logTypes: ['AWS.CloudTrail'], authType: 'Bearer', secret: 'legacy-token' },
      })
    ).createHttpLogSource;
    const current = (await repository.getSource(created.id))!;
    const salt = '00112233445566778899aabbccddeeff';
    const legacy = { kind: 'hash' as const, salt, hash: createHash('sha256').update(salt).update('legacy-token').digest('hex') };
    await repository.replaceSource(current, { ...current, secret: legacy });
    const post = (token: string) =>
      fetch(`${runtime.url}/ingest/${created.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{"eventName":"Upgraded"}',
      });
    expect((await post('wrong-token')).status).toBe(403);
    expect((await repository.getSource(created.id))!.secret).toEqual(legacy);
    expect((await post('legacy-token')).status).toBe(200);
    const upgraded = (await repository.getSource(created.id))!;
    expect(upgraded.secret).toMatchObject({ kind: 'scrypt' });
    expect(JSON.stringify(upgraded)).not.toContain('legacy-token');
    expect((await post('legacy-token')).status).toBe(200);
  });

  it('refuses an HMAC key shorter than 32 characters', async () => {
    const input = {
      label: 'Signed',
      logTypes: ['AWS.CloudTrail'],
      authType: 'HMAC',
      hmacAlgorithm: 'sha256',
      signatureHeader: 'X-Signature',
      secret: 'k',
    };
    expect(errorOf(await call(CREATE_HTTP, { input }))).toEqual({
      type: 'InvalidInput',
      message: 'secret: Must be at least 32 characters',
    });
    const created = await ok<{ createHttpLogSource: Source }>(CREATE_HTTP, { input: { ...input, secret: 'k'.repeat(32) } });
    expect(created.createHttpLogSource.http.secret).toBe('********');
  });
});

describe('SQS sources', () => {
  it('creates a queue with a policy for the allowed principals, connected to the log processor, and deletes both with the source', async () => {
    const created = (
      await ok<{ createSqsLogSource: Source & { sqs: { queueUrl: string; queueArn: string } } }>(CREATE_SQS, {
        input: { label: 'Queue', logTypes: ['AWS.CloudTrail'], allowedPrincipalArns: ['123456789012'], allowedSourceArns: [] },
      })
    ).createSqsLogSource;
    expect(created.sqs.queueArn).toMatch(new RegExp(`:caracal-source-${created.id}$`));
    const attributes = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: created.sqs.queueUrl, AttributeNames: ['Policy'] }),
    );
    const policy = JSON.parse(attributes.Attributes!.Policy!);
    expect(policy.Statement[0]).toMatchObject({
      Effect: 'Allow',
      Action: 'sqs:SendMessage',
      Principal: { AWS: ['arn:aws:iam::123456789012:root'] },
    });
    expect((await repository.sourceForQueue(created.sqs.queueArn))?.id).toBe(created.id);
    const lambda = new LambdaClient(localClientConfig(runtime.endpoints.lambda, runtime.stack.region));
    const mappings = () => lambda.send(new ListEventSourceMappingsCommand({ EventSourceArn: created.sqs.queueArn }));
    expect((await mappings()).EventSourceMappings).toMatchObject([
      { EventSourceArn: created.sqs.queueArn, FunctionArn: expect.stringMatching(/LogProcessor/), BatchSize: 10 },
    ]);
    await ok(DELETE, { id: created.id });
    expect((await mappings()).EventSourceMappings).toEqual([]);
    lambda.destroy();
    await expect(sqs.send(new GetQueueUrlCommand({ QueueName: `caracal-source-${created.id}` }))).rejects.toThrow();
    const gone = await call(`query($id: ID!) { logSource(id: $id) { id } }`, { id: created.id });
    expect(errorOf(gone).type).toBe('NotFound');
  });
});

describe('source health', () => {
  const healthFunction = () =>
    [...runtime.functions.keys()].find((name) =>
      runtime.functions.get(name)!.spec.logicalId.startsWith('LogSourcesSourceHealthFunction'),
    )!;
  const dedupItems = async (key: string) => {
    const { dynamo } = await import('../../../functions/lib/clients');
    const out = await dynamo().send(
      new QueryCommand({
        TableName: process.env.ENTITY_TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `DEDUP#SYSTEM#${key}` },
      }),
    );
    return out.Items ?? [];
  };

  it('raises SOURCE_PERMISSIONS_CHECKS once for a source whose bucket cannot be read', async () => {
    const created = (
      await ok<{ createS3LogSource: Source }>(CREATE_S3, {
        input: { ...s3Input('Missing Bucket'), bucket: 'no-such-bucket-here' },
      })
    ).createS3LogSource;
    expect(created.health).toMatchObject({ status: 'UNHEALTHY' });
    expect(await dedupItems(`SOURCE_PERMISSIONS_CHECKS:${created.id}`)).toHaveLength(0);
    await runtime.invoke(healthFunction(), {});
    await runtime.invoke(healthFunction(), {});
    expect(await dedupItems(`SOURCE_PERMISSIONS_CHECKS:${created.id}`)).toHaveLength(1);
    await ok(DELETE, { id: created.id });
  });

  it('raises SOURCE_NO_DATA once for a source that stopped receiving events, with a notification', async () => {
    const source = (
      await ok<{ createHttpLogSource: Source }>(CREATE_HTTP, {
        input: { label: 'Quiet', logTypes: ['AWS.CloudTrail'], authType: 'None' },
      })
    ).createHttpLogSource;
    const longAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await repository.recordIngestion(source.id, { events: 1, bytes: 10, classificationFailures: 0, lastEventAt: longAgo });
    const health = [...runtime.functions.keys()].find((name) =>
      runtime.functions.get(name)!.spec.logicalId.startsWith('LogSourcesSourceHealthFunction'),
    )!;
    await runtime.invoke(health, { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} });
    await runtime.invoke(health, { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} });
    const { dynamo } = await import('../../../functions/lib/clients');
    const dedup = await dynamo().send(
      new QueryCommand({
        TableName: process.env.ENTITY_TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `DEDUP#SYSTEM#SOURCE_NO_DATA:${source.id}` },
      }),
    );
    expect(dedup.Items).toHaveLength(1);
    const alert = await dynamo().send(
      new QueryCommand({
        TableName: process.env.ENTITY_TABLE,
        // The alert item itself (its partition also holds its activity and deliveries).
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': `ALERT#${dedup.Items![0].alertId}`, ':sk': 'ALERT' },
      }),
    );
    expect(alert.Items![0]).toMatchObject({
      title: 'Source has not received events',
      eventCount: 1,
      systemKind: 'SOURCE_NO_DATA',
    });
    const notes = await ok<{ notifications: { edges: { node: { title: string } }[] } }>(
      `query { notifications(input: {}) { edges { node { title } } } }`,
    );
    expect(notes.notifications.edges.filter((e) => e.node.title === 'Source has not received events')).toHaveLength(1);
    const data = await ok<{ sourceHealth: { status: string; checks: { name: string; status: string }[] } }>(
      `query($id: ID!) { sourceHealth(id: $id) { status checks { name status } } }`,
      { id: source.id },
    );
    expect(data.sourceHealth.status).toBe('UNHEALTHY');
    expect(data.sourceHealth.checks).toContainEqual({ name: 'dataReceivedStatus', status: 'FAILED' });
    const s3Health = await ok<{ sourceHealth: { checks: { name: string; status: string }[] } }>(
      `query($id: ID!) { sourceHealth(id: $id) { checks { name status } } }`,
      { id: s3SourceId },
    );
    expect(s3Health.sourceHealth.checks).toEqual([
      { name: 's3BucketLocationStatus', status: 'OK' },
      { name: 's3BucketStatus', status: 'OK' },
      { name: 'kmsKeyStatus', status: 'SKIPPED' },
      { name: 'dataReceivedStatus', status: 'OK' },
    ]);
  });
});
