// The local DynamoDB stand-in and a state folder made before an index was added: dynalite cannot add an index,
// so a table whose indexes differ from the template's is rebuilt with the template's definition, every item
// kept (also when a stop interrupted an earlier rebuild), and the alerts stored before the alert indexes are
// backfilled, so the alert lists show them.
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  type AttributeValue,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listAlerts } from '../../functions/lib/alerts/repository';
import { ensureTableDefinition, rebuildTableName } from '../../local/services/dynamodb-rebuild';
import { startDynamo, type DynamoService } from '../../local/services/dynamodb';
import { localClientConfig } from '../../local/services/net';
import { startTestRuntime, type TestRuntime } from './harness';

const dirs: string[] = [];
const services: DynamoService[] = [];
let runtime: TestRuntime | undefined;
afterAll(async () => {
  await runtime?.stop();
  for (const s of services) await s.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const S = 'S' as const;
const index = (name: string, attrs?: string[]) => ({
  IndexName: name,
  KeySchema: [
    { AttributeName: `${name}pk`, KeyType: 'HASH' as const },
    { AttributeName: `${name}sk`, KeyType: 'RANGE' as const },
  ],
  Projection: attrs ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: attrs } : { ProjectionType: 'ALL' as const },
});
function definition(TableName: string, indexes: string[]): CreateTableCommandInput {
  return {
    TableName,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    AttributeDefinitions: ['pk', 'sk', ...indexes.flatMap((i) => [`${i}pk`, `${i}sk`])].map((AttributeName) => ({
      AttributeName,
      AttributeType: S,
    })),
    GlobalSecondaryIndexes: indexes.map((i) => (i === 'byColor' ? index(i, ['color']) : index(i))),
  };
}

/** Creates a table and waits until it is ACTIVE. */
async function createTable(client: DynamoDBClient, input: CreateTableCommandInput) {
  await client.send(new CreateTableCommand(input));
  while ((await client.send(new DescribeTableCommand({ TableName: input.TableName }))).Table?.TableStatus !== 'ACTIVE')
    await new Promise((r) => setTimeout(r, 20));
}

async function freshDynamo() {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-upgrade-'));
  dirs.push(dir);
  const service = await startDynamo(join(dir, 'dynamodb'));
  services.push(service);
  return new DynamoDBClient(localClientConfig(service.endpoint, 'us-east-1'));
}

async function fill(client: DynamoDBClient, table: string, count: number) {
  for (let i = 0; i < count; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) => {
        const n = String(i + j).padStart(5, '0');
        return client.send(
          new PutItemCommand({
            TableName: table,
            Item: {
              pk: { S: `ITEM#${n}` },
              sk: { S: 'ITEM' },
              gsi1pk: { S: 'ALL' },
              gsi1sk: { S: n },
              byColorpk: { S: (i + j) % 3 ? 'blue' : 'red' },
              byColorsk: { S: n },
              color: { S: 'x' },
              payload: { S: 'p'.repeat(200) },
            },
          }),
        );
      }),
    );
}

const count = async (client: DynamoDBClient, TableName: string) => {
  let total = 0;
  let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
  do {
    const out = await client.send(new ScanCommand({ TableName, Select: 'COUNT', ExclusiveStartKey }));
    total += out.Count ?? 0;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return total;
};
const tables = async (client: DynamoDBClient) => (await client.send(new ListTablesCommand({}))).TableNames ?? [];
const indexNames = async (client: DynamoDBClient, TableName: string) =>
  ((await client.send(new DescribeTableCommand({ TableName }))).Table?.GlobalSecondaryIndexes ?? [])
    .map((i) => i.IndexName)
    .sort();

describe('ensureTableDefinition', () => {
  it('rebuilds a table of other indexes with the template definition, every item kept; a table already right is left alone', async () => {
    const client = await freshDynamo();
    await createTable(client, definition('things', ['gsi1']));
    await fill(client, 'things', 1234);
    expect(await ensureTableDefinition(client, definition('things', ['gsi1', 'byColor']))).toBe(true);
    expect(await indexNames(client, 'things')).toEqual(['byColor', 'gsi1']);
    expect(await count(client, 'things')).toBe(1234);
    expect(await tables(client)).toEqual(['things']);
    const red = await client.send(
      new QueryCommand({
        TableName: 'things',
        IndexName: 'byColor',
        KeyConditionExpression: 'byColorpk = :c',
        ExpressionAttributeValues: { ':c': { S: 'red' } },
        Select: 'COUNT',
      }),
    );
    expect(red.Count).toBe(412);
    expect(await ensureTableDefinition(client, definition('things', ['gsi1', 'byColor']))).toBe(false);
    // A projection change is a difference too.
    const narrower = definition('things', ['gsi1', 'byColor']);
    narrower.GlobalSecondaryIndexes![1].Projection = { ProjectionType: 'KEYS_ONLY' };
    expect(await ensureTableDefinition(client, narrower)).toBe(true);
    expect(await count(client, 'things')).toBe(1234);
  });

  it('finishes a rebuild a stop interrupted, from either side', async () => {
    const client = await freshDynamo();
    const wanted = definition('things', ['gsi1', 'byColor']);
    // Stopped after the old table was deleted and made again (empty), before the copy back.
    await createTable(client, definition(rebuildTableName('things'), ['gsi1', 'byColor']));
    await fill(client, rebuildTableName('things'), 300);
    await createTable(client, wanted);
    expect(await ensureTableDefinition(client, wanted)).toBe(true);
    expect(await count(client, 'things')).toBe(300);
    expect(await tables(client)).toEqual(['things']);

    // Stopped while filling the rebuild table: the old table holds everything, the leftover is partial.
    await createTable(client, definition('others', ['gsi1']));
    await fill(client, 'others', 500);
    await createTable(client, definition(rebuildTableName('others'), ['gsi1', 'byColor']));
    await fill(client, rebuildTableName('others'), 20);
    expect(await ensureTableDefinition(client, definition('others', ['gsi1', 'byColor']))).toBe(true);
    expect(await indexNames(client, 'others')).toEqual(['byColor', 'gsi1']);
    expect(await count(client, 'others')).toBe(500);
    expect((await tables(client)).sort()).toEqual(['others', 'things']);
  });
});

describe('the local runtime on a state folder with an entity table made before the alert indexes', () => {
  it('rebuilds the table, keeps its items and backfills the old alerts, which the alert lists then show', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'caracal-upgrade-state-'));
    dirs.push(stateDir);
    // A state folder of today's template, to learn the table's name and definition.
    let first: TestRuntime | undefined = await startTestRuntime(undefined, stateDir);
    const env = [...first.functions.values()].find((f) => f.spec.logicalId.startsWith('ApiApiFunction'))!.spec.environment;
    const table = env.ENTITY_TABLE;
    // Tables made from the template are the template's: nothing is rebuilt, no alert needs its keys.
    expect(first.logs.filter((line) => line.includes('rebuilt') || line.includes('backfilled'))).toEqual([]);
    await first.stop();
    first = undefined;

    // Make it an old one: the entity table with only the generic indexes, holding old alerts and another item.
    const old = await startDynamo(join(stateDir, 'dynamodb'));
    const client = new DynamoDBClient(localClientConfig(old.endpoint, 'us-east-1'));
    const current = (await client.send(new DescribeTableCommand({ TableName: table }))).Table!;
    await client.send(new DeleteTableCommand({ TableName: table }));
    while ((await tables(client)).includes(table)) await new Promise((r) => setTimeout(r, 50));
    const generic = (current.GlobalSecondaryIndexes ?? []).filter((i) => i.IndexName!.startsWith('gsi'));
    expect(generic).toHaveLength(3);
    await createTable(client, {
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: current.KeySchema,
      AttributeDefinitions: (current.AttributeDefinitions ?? []).filter((a) =>
        /^(pk|sk|gsi\dpk|gsi\dsk)$/.test(a.AttributeName!),
      ),
      GlobalSecondaryIndexes: generic.map((i) => ({
        IndexName: i.IndexName,
        KeySchema: i.KeySchema,
        Projection: i.Projection,
      })),
    });
    for (let n = 0; n < 40; n++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
      const id = `old-${String(n).padStart(2, '0')}`;
      const s = (v: string) => ({ S: v });
      await client.send(
        new PutItemCommand({
          TableName: table,
          Item: {
            pk: s(`ALERT#${id}`),
            sk: s('ALERT'),
            gsi1pk: s('ALERT#TYPE#ALERT'),
            gsi1sk: s(`${at}#${id}`),
            gsi3pk: s('ALERT#UPDATED#ALERT'),
            gsi3sk: s(`${at}#${id}`),
            id: s(id),
            type: s('ALERT'),
            title: s(`Old alert ${n}`),
            titleLower: s(`old alert ${n}`),
            severity: s(n % 2 ? 'HIGH' : 'MEDIUM'),
            status: s('OPEN'),
            detectionId: s('det-old'),
            gsi2pk: s('ALERT#DETECTION#det-old'),
            gsi2sk: s(`${at}#${id}`),
            logTypes: { L: [s('AWS.CloudTrail')] },
            eventCount: { N: '1' },
            firstEventAt: s(at),
            lastEventAt: s(at),
            createdAt: s(at),
            updatedAt: s(at),
            dedupString: s(`d${n}`),
            activitySeq: { N: '1' },
          },
        }),
      );
    }
    await client.send(
      new PutItemCommand({ TableName: table, Item: { pk: { S: 'OTHER#1' }, sk: { S: 'OTHER' }, v: { S: 'kept' } } }),
    );
    client.destroy();
    await old.stop();

    runtime = await startTestRuntime(undefined, stateDir);
    expect(runtime.logs).toContain(`[runtime] table ${table} rebuilt with the template's indexes (items kept)`);
    expect(runtime.logs).toContain('[runtime] alert indexes backfilled on 40 stored alert(s) (0 changed meanwhile)');
    const after = new DynamoDBClient(localClientConfig(runtime.endpoints.dynamodb, 'us-east-1'));
    expect(await indexNames(after, table)).toEqual((current.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort());
    expect(await count(after, table)).toBeGreaterThanOrEqual(41);
    after.destroy();
    Object.assign(process.env, env);
    expect((await listAlerts({ type: 'ALERT' }, 100)).items).toHaveLength(40);
    expect((await listAlerts({ type: 'ALERT', detectionId: 'det-old', severities: ['HIGH'] }, 100)).items).toHaveLength(20);
    expect((await listAlerts({ type: 'ALERT', sort: 'updatedAt' }, 100)).items[0].id).toBe('old-39');

    // The next start finds the table right and nothing left to backfill.
    await runtime.stop();
    runtime = await startTestRuntime(undefined, stateDir);
    expect(runtime.logs.filter((line) => line.includes('rebuilt') || line.includes('backfilled'))).toEqual([]);
    expect((await listAlerts({ type: 'ALERT' }, 100)).items).toHaveLength(40);
  });
});
