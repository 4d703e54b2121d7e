// The dead-letter check against the SQS and DynamoDB stand-ins: a PIPELINE_DEAD_LETTERS alert when a
// dead-letter queue's count rises, none while it stays, a new one after the last was resolved; the dead
// letters are only counted, never taken; the delivery queue's are only counted (the sender raises ALERT_DELIVERY);
// a queue that cannot be read does not stop the others.
import { PurgeQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkDeadLetters } from '../../functions/lib/pipeline';
import { listAlerts, type Alert } from '../../functions/lib/alerts';
import { dynamo } from '../../functions/lib/clients';
import { localClientConfig } from '../../local/services/net';
import { startSqs, type SqsService } from '../../local/services/sqs';
import { startAlertChanges, type AlertChanges } from './alerts/alert-changes';
import { startEntityTable } from './alerts/entity-table';

let stopTable: () => Promise<void>;
let queues: SqsService;
let client: SQSClient;
let changes: AlertChanges;
const urls: Record<string, string> = {};
const told: Alert[] = [];
const onCreated = async (alert: Alert) => void told.push(alert);

beforeAll(async () => {
  stopTable = (await startEntityTable('dead-letters')).stop;
  queues = await startSqs('us-east-1');
  process.env.AWS_ENDPOINT_URL_SQS = queues.endpoint;
  changes = await startAlertChanges(queues);
  client = new SQSClient(localClientConfig(queues.endpoint, 'us-east-1'));
  for (const [variable, name] of [
    ['INGEST_DLQ_URL', 'ingest-dlq'],
    ['DETECTIONS_DLQ_URL', 'detections-dlq'],
    ['ALERT_CHANGES_DLQ_URL', 'alert-changes-dlq'],
    ['ALERT_DELIVERY_DLQ_URL', 'alert-delivery-dlq'],
    ['RUNS_DLQ_URL', 'runs-dlq'],
  ]) {
    urls[variable] = queues.server.createQueue(name, { region: 'us-east-1' }).queueUrl;
    process.env[variable] = urls[variable];
  }
});

afterAll(async () => {
  client.destroy();
  await queues.stop();
  await stopTable();
});

beforeEach(() => {
  told.length = 0;
});

const deadLetter = (variable: string, body = '{"kind":"events-written"}') =>
  client.send(new SendMessageCommand({ QueueUrl: urls[variable], MessageBody: body }));
const deadLetterAlerts = async () =>
  (await listAlerts({ type: 'SYSTEM_ERROR' }, 50)).items.filter((a) => a.systemKind === 'PIPELINE_DEAD_LETTERS');
const held = (name: string) => queues.server.inspectQueue(name)!.messages.ready.length;

describe('checkDeadLetters', () => {
  it('raises nothing while the dead-letter queues are empty', async () => {
    expect(await checkDeadLetters({ onCreated })).toEqual({
      counts: { ingest: 0, detections: 0, 'alert-changes': 0, 'alert-delivery': 0, runs: 0 },
      raised: 0,
    });
    expect(await deadLetterAlerts()).toEqual([]);
  });

  it('raises a PIPELINE_DEAD_LETTERS alert naming the queue and the count, and leaves the dead letters where they are', async () => {
    await deadLetter('DETECTIONS_DLQ_URL');
    await deadLetter('DETECTIONS_DLQ_URL');
    const now = new Date('2026-03-01T10:00:00Z');
    expect(await checkDeadLetters({ now, onCreated })).toEqual({
      counts: { ingest: 0, detections: 2, 'alert-changes': 0, 'alert-delivery': 0, runs: 0 },
      raised: 1,
    });
    const [alert] = await deadLetterAlerts();
    expect(alert).toMatchObject({
      type: 'SYSTEM_ERROR',
      systemKind: 'PIPELINE_DEAD_LETTERS',
      severity: 'HIGH',
      status: 'OPEN',
      title: 'Dead letters in the detections queue',
      eventCount: 1,
      createdAt: now.toISOString(),
      dedupString: 'PIPELINE_DEAD_LETTERS:detections',
    });
    expect(alert.description).toBe(
      '2 messages of the detections queue failed every retry of the detections function and moved to its ' +
        'dead-letter queue, which holds 2 messages. They are kept there: find the cause in the log of the ' +
        'detections function, then redrive them to the detections queue.',
    );
    expect(told.map((a) => a.id)).toEqual([alert.id]);
    expect(changes.published().map((m) => [m.change, m.alertId])).toEqual([['CREATED', alert.id]]);
    expect(held('detections-dlq')).toBe(2);
  });

  it('raises nothing more while the count stays, and counts a rise on the open alert without telling users again', async () => {
    expect(await checkDeadLetters({ onCreated })).toMatchObject({ raised: 0 });
    await deadLetter('DETECTIONS_DLQ_URL');
    expect(await checkDeadLetters({ onCreated })).toEqual({
      counts: { ingest: 0, detections: 3, 'alert-changes': 0, 'alert-delivery': 0, runs: 0 },
      raised: 1,
    });
    const alerts = await deadLetterAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0].eventCount).toBe(2);
    expect(told).toEqual([]);
    expect(changes.published().map((m) => [m.change, m.alertId])).toEqual([
      ['CREATED', alerts[0].id],
      ['EVENTS_ADDED', alerts[0].id],
    ]);
  });

  it('opens a new alert for new dead letters once the last one was resolved', async () => {
    const [resolved] = await deadLetterAlerts();
    await dynamo().send(
      new UpdateCommand({
        TableName: 'dead-letters',
        Key: { pk: `ALERT#${resolved.id}`, sk: 'ALERT' },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': 'RESOLVED' },
      }),
    );
    // The dead letters were redriven: the queue empties, and a later failure counts as new.
    await client.send(new PurgeQueueCommand({ QueueUrl: urls.DETECTIONS_DLQ_URL }));
    expect(await checkDeadLetters({ onCreated })).toMatchObject({ counts: { detections: 0 }, raised: 0 });
    await deadLetter('DETECTIONS_DLQ_URL');
    expect(await checkDeadLetters({ onCreated })).toMatchObject({ counts: { detections: 1 }, raised: 1 });
    const alerts = await deadLetterAlerts();
    expect(alerts.map((a) => a.status).sort()).toEqual(['OPEN', 'RESOLVED']);
    expect(told).toHaveLength(1);
    expect(told[0].description).toMatch(/^1 message of the detections queue/);
  });

  it('counts the delivery dead letters but leaves their alert to the delivery sender (ALERT_DELIVERY, per destination)', async () => {
    await deadLetter('ALERT_DELIVERY_DLQ_URL', '{"kind":"alert-delivery"}');
    expect(await checkDeadLetters({ onCreated })).toMatchObject({ counts: { 'alert-delivery': 1 }, raised: 0 });
    expect(told).toEqual([]);
    expect((await deadLetterAlerts()).filter((a) => a.dedupString === 'PIPELINE_DEAD_LETTERS:alert-delivery')).toEqual([]);
    expect(held('alert-delivery-dlq')).toBe(1);
  });

  it('checks the other queues when one cannot be read, then fails naming it', async () => {
    delete process.env.DETECTIONS_DLQ_URL;
    await deadLetter('INGEST_DLQ_URL');
    try {
      await expect(checkDeadLetters({ onCreated })).rejects.toThrow(
        'The dead-letter check failed for the detections queue: Missing environment variable DETECTIONS_DLQ_URL',
      );
      expect(told.map((a) => a.title)).toEqual(['Dead letters in the ingest queue']);
      expect(told[0].description).toMatch(/failed every retry of the log processor/);
    } finally {
      process.env.DETECTIONS_DLQ_URL = urls.DETECTIONS_DLQ_URL;
    }
  });
});
