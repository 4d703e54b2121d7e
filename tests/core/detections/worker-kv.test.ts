// The detection worker's key-value requests served from a DynamoDB table (dynalite stands in for
// DynamoDB): a caching rule counts across events through the host, and expired items read as missing.
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoKeyValue } from '../../../functions/detection-engine/kv-table';
import { DetectionWorker } from '../../../functions/detection-engine/worker-client';

// dynalite ships no type declarations; it returns a net.Server.
const dynalite = createRequire(import.meta.url)('dynalite') as (options: { createTableMs: number }) => Server;
const TABLE = 'caracal-kv';
let server: Server;
let documents: DynamoDBDocumentClient;
let dir: string;

beforeAll(async () => {
  server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      KeySchema: [{ AttributeName: 'key', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'key', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  documents = DynamoDBDocumentClient.from(client);
  dir = mkdtempSync(join(tmpdir(), 'caracal-kv-'));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('key-value table', () => {
  it('serves the caching operations', async () => {
    const kv = dynamoKeyValue(documents, TABLE);
    expect(await kv({ op: 'increment', key: 'c', amount: 2 })).toBe(2);
    expect(await kv({ op: 'increment', key: 'c', amount: 3 })).toBe(5);
    expect(await kv({ op: 'addStrings', key: 's', values: ['b', 'a'] })).toEqual(['a', 'b']);
    expect(await kv({ op: 'removeStrings', key: 's', values: ['a'] })).toEqual(['b']);
    await kv({ op: 'put', key: 'd', item: { dictionary: '{"x": 1}' } });
    expect(await kv({ op: 'get', key: 'd' })).toEqual({ dictionary: '{"x": 1}' });
    await kv({ op: 'clearStrings', key: 's' });
    expect(await kv({ op: 'get', key: 's' })).toEqual({});
    await expect(kv({ op: 'nope', key: 'x' })).rejects.toThrow('unknown key-value op "nope"');
  });

  it('treats expired items as missing', async () => {
    const kv = dynamoKeyValue(documents, TABLE);
    await documents.send(new PutCommand({ TableName: TABLE, Item: { key: 'old', intCount: 9, expiresAt: 1 } }));
    expect(await kv({ op: 'get', key: 'old' })).toEqual({});
    await documents.send(new PutCommand({ TableName: TABLE, Item: { key: 'old', intCount: 9, expiresAt: 1 } }));
    expect(await kv({ op: 'increment', key: 'old', amount: 1 })).toBe(1);
  });

  it('gives detection code no AWS credentials', async () => {
    const rule = join(dir, 'creds.py');
    writeFileSync(rule, 'import os\ndef rule(event):\n    return any(name.startswith("AWS_") for name in os.environ)\n');
    process.env.AWS_SECRET_ACCESS_KEY = 'not-for-detections';
    const worker = new DetectionWorker();
    try {
      await worker.request('load', {
        content: { detections: [{ id: 'Creds', analysisType: 'rule', severity: 'Low', logTypes: ['T'], path: rule }] },
      });
      const { results } = await worker.request<{ results: unknown[][] }>('run', { events: [{ p_log_type: 'T' }] });
      expect(results).toEqual([[]]);
    } finally {
      delete process.env.AWS_SECRET_ACCESS_KEY;
      worker.close();
    }
  });

  it('backs panther_detection_helpers.caching in the worker', async () => {
    const rule = join(dir, 'count.py');
    writeFileSync(
      rule,
      'from panther_detection_helpers.caching import increment_counter, add_to_string_set\n' +
        'def rule(event):\n' +
        '    add_to_string_set("users", event.get("user"))\n' +
        '    return increment_counter("logins-" + event.get("user"), epoch_seconds=3600) >= 3\n',
    );
    const worker = new DetectionWorker({ keyValue: dynamoKeyValue(documents, TABLE) });
    try {
      await worker.request('load', {
        content: { detections: [{ id: 'Count', analysisType: 'rule', severity: 'Low', logTypes: ['T'], path: rule }] },
      });
      const events = ['amy', 'amy', 'bo', 'amy'].map((user) => ({ p_log_type: 'T', user }));
      const { results } = await worker.request<{ results: { matched: boolean }[][] }>('run', { events });
      expect(results.map((r) => r.some((x) => x.matched))).toEqual([false, false, false, true]);
      const users = await dynamoKeyValue(documents, TABLE)({ op: 'get', key: 'users' });
      expect((users as { stringSet: string[] }).stringSet).toEqual(['amy', 'bo']);
    } finally {
      worker.close();
    }
  });
});
