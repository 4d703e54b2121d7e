// A message that keeps failing ends in its queue's dead-letter queue, and the dead-letter check raises a
// PIPELINE_DEAD_LETTERS system alert with a notification, once per occurrence; the dead letter itself stays
// where it is, to be redriven. The poison is real: a detections-queue message naming a lake object that is
// not gzip, which the detections function fails on at every attempt. Failed messages come back at once
// (retryDelaySeconds 0) instead of after the queue's 6-minute visibility timeout.
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAD_LETTER_QUEUES } from '../../core/pipeline/dead-letters';
import type { EventsWrittenMessage } from '../../core/pipeline/messages';
import { localClientConfig } from '../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from '../local/harness';
import { eventually } from './helpers';

/** Every watched dead-letter queue, empty (queues are added as the platform grows). */
const noDeadLetters = Object.fromEntries(DEAD_LETTER_QUEUES.map((q) => [q.id, 0]));

let runtime: TestRuntime;
let token: string;
let s3: S3Client;
let sqs: SQSClient;
let check: { name: string; env: Record<string, string> };
let detections: { env: Record<string, string> };

const ALERTS = `query { alerts(input: { type: SYSTEM_ERROR }) { edges { node {
  id title severity status systemKind description eventCount } } } }`;
const NOTIFICATIONS = `query { notifications(input: {}) { edges { node { topic level title message metadata { alertId } } } } }`;

type AlertNode = { id: string; title: string; systemKind: string; description: string; eventCount: number; severity: string };
type NotificationNode = { topic: string; level: string; title: string; metadata: { alertId: string | null } };

async function api<T>(query: string): Promise<T> {
  const { body } = await graphql(runtime, { query }, token);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

const deadLetterAlerts = async () =>
  (await api<{ alerts: { edges: { node: AlertNode }[] } }>(ALERTS)).alerts.edges
    .map((e) => e.node)
    .filter((a) => a.systemKind === 'PIPELINE_DEAD_LETTERS');

const notificationsAbout = async (alertId: string) =>
  (await api<{ notifications: { edges: { node: NotificationNode }[] } }>(NOTIFICATIONS)).notifications.edges
    .map((e) => e.node)
    .filter((n) => n.metadata.alertId === alertId);

async function messagesIn(queueUrl: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
}

async function runCheck(): Promise<{ counts: Record<string, number>; raised: number }> {
  const outcome = await runtime.invoke(check.name, {});
  if (!outcome.ok) throw new Error(`${outcome.error.errorType}: ${outcome.error.errorMessage}`);
  return outcome.result as { counts: Record<string, number>; raised: number };
}

function functionWith(logicalIdPrefix: string) {
  const fn = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith(logicalIdPrefix));
  if (!fn) throw new Error(`the template has no function ${logicalIdPrefix}*`);
  return { name: fn.spec.name, env: fn.spec.environment };
}

/** Puts a lake object that is not gzip and announces it on the detections queue. */
async function sendPoison(key: string): Promise<EventsWrittenMessage> {
  await s3.send(new PutObjectCommand({ Bucket: detections.env.LAKE_BUCKET, Key: key, Body: 'not gzip at all' }));
  const message: EventsWrittenMessage = {
    kind: 'events-written',
    bucket: detections.env.LAKE_BUCKET,
    key,
    logType: 'GitHub.Audit',
    sourceId: 'poisoned-source',
    events: 1,
    receivedAt: new Date().toISOString(),
  };
  const queueUrl = functionWith('ProcessingLogProcessorFunction').env.DETECTIONS_QUEUE_URL;
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
  return message;
}

beforeAll(async () => {
  runtime = await startTestRuntime(undefined, undefined, { retryDelaySeconds: 0 });
  const [admin] = runtime.createdUsers;
  token = (await signIn(runtime, admin.username, admin.temporaryPassword, 'Dead-Letters-2026!')).idToken;
  s3 = new S3Client(localClientConfig(runtime.endpoints.s3, runtime.stack.region));
  sqs = new SQSClient(localClientConfig(runtime.endpoints.sqs, runtime.stack.region));
  check = functionWith('DeadLettersCheckFunction');
  detections = functionWith('DetectionsDetectionsFunction');
});

afterAll(async () => {
  s3?.destroy();
  sqs?.destroy();
  await runtime?.stop();
});

describe('dead letters', () => {
  it('raise nothing while every dead-letter queue is empty', async () => {
    expect(await runCheck()).toEqual({
      counts: noDeadLetters,
      raised: 0,
    });
    expect(await deadLetterAlerts()).toEqual([]);
  });

  it('a detections message that fails every retry moves to the dead-letter queue, and the check raises an alert', async () => {
    const poison = await sendPoison('panther_logs/github_audit/poison-1.json.gz');
    const dlq = check.env.DETECTIONS_DLQ_URL;
    expect(
      await eventually(
        () => messagesIn(dlq),
        (n) => n === 1,
      ),
    ).toBe(1);
    expect(await messagesIn(functionWith('ProcessingLogProcessorFunction').env.DETECTIONS_QUEUE_URL)).toBe(0);
    expect(runtime.logs.filter((line) => line.includes('detections failed') && line.includes('poison-1')).length).toBe(5);

    expect(await runCheck()).toEqual({
      counts: { ...noDeadLetters, detections: 1 },
      raised: 1,
    });
    const [alert] = await deadLetterAlerts();
    expect(alert).toMatchObject({
      title: 'Dead letters in the detections queue',
      severity: 'HIGH',
      eventCount: 1,
      description: expect.stringMatching(/^1 message of the detections queue failed every retry of the detections function/),
    });
    expect(await notificationsAbout(alert.id)).toEqual([
      expect.objectContaining({ topic: 'SYSTEM_ERROR', level: 'ERROR', title: 'Dead letters in the detections queue' }),
    ]);

    // Nothing is lost: the dead letter is the message that was sent, still waiting in the dead-letter queue.
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq, VisibilityTimeout: 0 }));
    expect(Messages?.map((m) => JSON.parse(m.Body!))).toEqual([poison]);
  });

  it('raises it once per occurrence: not again for the same dead letter, again (on the open alert) for a new one', async () => {
    expect(await runCheck()).toMatchObject({ counts: { detections: 1 }, raised: 0 });
    const [unchanged] = await deadLetterAlerts();
    expect(unchanged.eventCount).toBe(1);

    await sendPoison('panther_logs/github_audit/poison-2.json.gz');
    await eventually(
      () => messagesIn(check.env.DETECTIONS_DLQ_URL),
      (n) => n === 2,
    );
    expect(await runCheck()).toMatchObject({ counts: { detections: 2 }, raised: 1 });
    const alerts = await deadLetterAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0].eventCount).toBe(2);
    expect(await notificationsAbout(alerts[0].id)).toHaveLength(1);
  });
});
