// The delivery record of each (alert, destination): where the delivery stands and its last attempt, kept with
// the alert.
//
// Keys: pk = ALERT#<alertId>  sk = DELIVERY#<destinationId>
//   { alertId, destinationId, destinationName, outputType, status, attempts, lastAttemptAt, lastStatusCode,
//     lastAnswer, changeKey (the change being delivered), deliveredKey (the last change delivered),
//     claimKey, claimUntil (a sender at work on changeKey), updatedAt,
//     serviceRef (what the service opened for the alert: a Jira issue key, an Asana task gid; status syncs move it) }
//       gate   pk = DELIVERY_FAILURE#<destinationId>  sk = ALERT  { raisedAt }: when the last ALERT_DELIVERY
//              system alert was raised for the destination (at most one an hour).
//       events pk = ALERT#<alertId>  sk = DELIVERY_EVENTS#<changeKey>  { events (JSON text), expiresAt (TTL) }: the
//              first page of the alert's events as the first send of that change read them, so every destination
//              and every attempt of the change sends the same events without reading the lake again.
// Every write is conditional: a change already delivered is never marked pending again, one sender at a time
// holds a change (a claim that lapses after CLAIM_SECONDS, should the sender die), and an attempt is recorded
// only on an existing record.
import { isDeepStrictEqual } from 'node:util';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { isConditionFailure, queryAll, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'RETRYING', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryRecord {
  readonly alertId: string;
  readonly destinationId: string;
  readonly destinationName: string;
  readonly outputType: string;
  readonly status: DeliveryStatus;
  /** Every attempt so far, over every change and retry. */
  readonly attempts: number;
  readonly lastAttemptAt: string | null;
  readonly lastStatusCode: number | null;
  readonly lastAnswer: string | null;
  readonly updatedAt: string;
  /** What the service opened for the alert (a Jira issue key, an Asana task gid), when it said. */
  readonly reference: string | null;
}

/** How long a sender holds a change before another may take it over (the longest send is well under this). */
export const CLAIM_SECONDS = 90;

const table = () => requireEnv(ENV.entityTable);
const key = (alertId: string, destinationId: string) => ({ pk: `ALERT#${alertId}`, sk: `DELIVERY#${destinationId}` });

function toRecord(item: Record<string, unknown>): DeliveryRecord {
  return {
    alertId: String(item.alertId),
    destinationId: String(item.destinationId),
    destinationName: String(item.destinationName ?? ''),
    outputType: String(item.outputType ?? ''),
    status: (DELIVERY_STATUSES as readonly string[]).includes(String(item.status)) ? (item.status as DeliveryStatus) : 'PENDING',
    attempts: Number(item.attempts ?? 0),
    lastAttemptAt: typeof item.lastAttemptAt === 'string' ? item.lastAttemptAt : null,
    lastStatusCode: typeof item.lastStatusCode === 'number' ? item.lastStatusCode : null,
    lastAnswer: typeof item.lastAnswer === 'string' ? item.lastAnswer : null,
    updatedAt: String(item.updatedAt ?? ''),
    reference: typeof item.serviceRef === 'string' ? item.serviceRef : null,
  };
}

export interface DestinationRef {
  readonly id: string;
  readonly displayName: string;
  readonly outputType: string;
}

/**
 * Marks (alert, destination) pending for the change `changeKey`; false when that change was delivered already
 * (nothing to send).
 */
export async function markPending(
  alertId: string,
  destination: DestinationRef,
  changeKey: string,
  now: string,
): Promise<boolean> {
  return writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(alertId, destination.id),
        UpdateExpression:
          'SET alertId = :alert, destinationId = :dest, destinationName = :name, outputType = :type, #status = :pending, ' +
          'changeKey = :key, attempts = if_not_exists(attempts, :zero), updatedAt = :now',
        ConditionExpression: 'attribute_not_exists(deliveredKey) OR deliveredKey <> :key',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':alert': alertId,
          ':dest': destination.id,
          ':name': destination.displayName,
          ':type': destination.outputType,
          ':pending': 'PENDING',
          ':key': changeKey,
          ':zero': 0,
          ':now': now,
        },
      }),
    ),
  );
}

export type Claim = 'claimed' | 'delivered' | 'busy';

/** Takes (alert, destination, change) for one send: 'delivered' when it was already, 'busy' when another sender holds it. */
export async function claim(alertId: string, destination: DestinationRef, changeKey: string, now: Date): Promise<Claim> {
  const taken = await writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(alertId, destination.id),
        UpdateExpression:
          'SET alertId = :alert, destinationId = :dest, destinationName = :name, outputType = :type, ' +
          'claimKey = :key, claimUntil = :until, attempts = if_not_exists(attempts, :zero), ' +
          '#status = if_not_exists(#status, :pending), updatedAt = :now',
        ConditionExpression:
          '(attribute_not_exists(deliveredKey) OR deliveredKey <> :key) AND ' +
          '(attribute_not_exists(claimKey) OR claimKey <> :key OR claimUntil < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':alert': alertId,
          ':dest': destination.id,
          ':name': destination.displayName,
          ':type': destination.outputType,
          ':key': changeKey,
          ':until': new Date(now.getTime() + CLAIM_SECONDS * 1000).toISOString(),
          ':zero': 0,
          ':pending': 'PENDING',
          ':now': now.toISOString(),
        },
      }),
    ),
  );
  if (taken) return 'claimed';
  const current = await dynamo().send(
    new GetCommand({ TableName: table(), Key: key(alertId, destination.id), ConsistentRead: true }),
  );
  return current.Item?.deliveredKey === changeKey ? 'delivered' : 'busy';
}

export interface Attempt {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly answer: string;
  readonly at: string;
  /** No attempt follows: the delivery failed for good. */
  readonly final: boolean;
  /** What the service opened (kept for status syncs). */
  readonly reference?: string;
}

/** Records one attempt of the change `changeKey` and lets go of the claim. */
export async function recordAttempt(
  alertId: string,
  destinationId: string,
  changeKey: string,
  attempt: Attempt,
): Promise<DeliveryRecord | null> {
  const status: DeliveryStatus = attempt.ok ? 'DELIVERED' : attempt.final ? 'FAILED' : 'RETRYING';
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: key(alertId, destinationId),
        UpdateExpression:
          `SET #status = :status, attempts = if_not_exists(attempts, :zero) + :one, lastAttemptAt = :at, ` +
          `lastStatusCode = :code, lastAnswer = :answer, updatedAt = :at${attempt.ok ? ', deliveredKey = :key' : ''}` +
          `${attempt.reference ? ', serviceRef = :reference' : ''} ` +
          'REMOVE claimKey, claimUntil',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': status,
          ':zero': 0,
          ':one': 1,
          ':at': attempt.at,
          ':code': attempt.statusCode,
          ':answer': attempt.answer.slice(0, 500),
          ...(attempt.ok ? { ':key': changeKey } : {}),
          ...(attempt.reference ? { ':reference': attempt.reference.slice(0, 255) } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes ? toRecord(out.Attributes) : null;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/** Every delivery record of an alert, by destination. */
export async function deliveriesOf(alertId: string): Promise<DeliveryRecord[]> {
  return queryAll(
    {
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `ALERT#${alertId}`, ':prefix': 'DELIVERY#' },
      ConsistentRead: true,
    },
    toRecord,
  );
}

export async function getDelivery(alertId: string, destinationId: string): Promise<DeliveryRecord | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: key(alertId, destinationId), ConsistentRead: true }));
  return out.Item ? toRecord(out.Item) : null;
}

/** Takes the hour's turn to raise an ALERT_DELIVERY system alert for a destination; false when it was taken within the hour. */
export async function takeFailureAlertTurn(destinationId: string, now: Date): Promise<boolean> {
  const hourAgo = new Date(now.getTime() - 3600_000).toISOString();
  return writeIf(() =>
    dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: `DELIVERY_FAILURE#${destinationId}`, sk: 'ALERT' },
        UpdateExpression: 'SET raisedAt = :now',
        ConditionExpression: 'attribute_not_exists(raisedAt) OR raisedAt < :hourAgo',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':hourAgo': hourAgo },
      }),
    ),
  );
}

// --- An alert's first events, kept per change ------------------------------------------------------------------

type Event = Record<string, unknown>;
const eventsKey = (alertId: string, changeKey: string) => ({ pk: `ALERT#${alertId}`, sk: `DELIVERY_EVENTS#${changeKey}` });
/** How long a change's events are kept: past its last retry (about half an hour) and a manual retry soon after. */
export const EVENTS_KEPT_SECONDS = 24 * 3600;
/** The most JSON a change's kept events may hold (DynamoDB takes 400 KB an item); larger pages are read each time. */
export const EVENTS_KEPT_MAX_CHARS = 300_000;

/** The events kept for a change of an alert; undefined when none were. */
export async function keptEvents(alertId: string, changeKey: string): Promise<Event[] | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: table(), Key: eventsKey(alertId, changeKey), ConsistentRead: true }),
  );
  if (typeof out.Item?.events !== 'string') return undefined;
  try {
    const events = JSON.parse(out.Item.events) as unknown;
    return Array.isArray(events) ? (events as Event[]) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a change's events (their JSON text, when it is short enough and reads back as the same values). */
export async function keepEvents(alertId: string, changeKey: string, events: readonly Event[]): Promise<boolean> {
  const text = JSON.stringify(events);
  if (text.length > EVENTS_KEPT_MAX_CHARS || !isDeepStrictEqual(JSON.parse(text), events)) return false;
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: { ...eventsKey(alertId, changeKey), events: text, expiresAt: Math.floor(Date.now() / 1000) + EVENTS_KEPT_SECONDS },
    }),
  );
  return true;
}
