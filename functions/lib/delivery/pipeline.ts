// The delivery pipeline, the last step of alerts:
// 1. fan-out (the alert-delivery function, on the alert-changes queue): a new alert, or one that gained events,
//    is resolved to its destinations (the detection's chosen ones alone when it chose, else core/destinations
//    resolution) and ONE message per (alert, destination) goes on the delivery queue (DELIVERY_QUEUE_URL). An
//    alert that gained events goes only to the types that take updates (payloads/). An ALERT_DELIVERY system
//    alert never goes to the destination it is about.
// 2. sending (the delivery sender, on the delivery queue): claims the (alert, destination, change), sends once,
//    records the attempt on the delivery record and in the alert's activity. A failure comes back after a
//    backoff set through the message's visibility (retry.ts); after the last attempt the message goes to the
//    delivery dead-letter queue, the record says FAILED, and an ALERT_DELIVERY system alert is raised (at most
//    once an hour per destination; administrators are notified by the alerts area). A change already delivered
//    is skipped, so a message read twice never sends twice. The alert's first events are read once per change
//    (the first send reads and keeps them, records.keepEvents; every destination and attempt of the change sends
//    those).
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { AlertChangedMessage } from '../../../core/alerts/messages';
import type { RoutedDetectionType } from '../../../core/destinations/resolution';
import type { Permission } from '../../../core/permissions/permissions';
import {
  alertComments,
  alertEvents,
  createSystemAlert,
  getAlert,
  recordAlertActivity,
  type Alert,
  type SystemAlertListener,
} from '../alerts';
import { sqs } from '../clients';
import { destinationsForAlert, getDestination, getDestinationForDelivery } from '../destinations';
import { getDetection } from '../detections';
import { ENV, optionalEnv, requireEnv } from '../env';
import { ApiError } from '../errors';
import { getUser } from '../users';
import { deliveryAlertOf, type DeliveryChange } from './alert';
import { senderOf, supportsUpdates, type DeliveryDestination, type DeliveryOutcome, type Sender } from './payloads';
import * as records from './records';
import { MAX_ATTEMPTS, retryDelaySeconds } from './retry';
import {
  sendToDestination,
  syncDestinationAssignee,
  syncDestinationComment,
  syncDestinationStatus,
  type SendOptions,
} from './send';

/** alert-delivery → delivery queue: one change of one alert for one destination. */
export interface DeliveryMessage {
  readonly kind: 'alert-delivery';
  readonly alertId: string;
  readonly destinationId: string;
  readonly change: DeliveryChange;
  /** When the change was made (ISO 8601): with `change`, what makes a delivery the same one. */
  readonly changedAt: string;
}

const changeKey = (m: Pick<DeliveryMessage, 'change' | 'changedAt'>) => `${m.change}@${m.changedAt}`;
const DELIVERED_CHANGES = new Set(['CREATED', 'EVENTS_ADDED', 'STATUS_CHANGED', 'ASSIGNEE_CHANGED', 'COMMENT_ADDED']);

export const DELIVERY_NOT_FOUND = 'No delivery of this alert to this destination';

/** Reads detections as the delivery engine: to name the detection and tell rules from policies. */
const ENGINE_CALLER = {
  id: 'caracal-delivery',
  username: 'caracal-delivery',
  email: '',
  enabled: true,
  role: null,
  permissions: ['RuleRead', 'PolicyRead'] as Permission[],
};

const DETECTION_TYPES: Record<string, RoutedDetectionType> = {
  rule: 'RULE',
  scheduled_rule: 'SCHEDULED_RULE',
  policy: 'POLICY',
  correlation_rule: 'CORRELATION_RULE',
};

async function detectionOf(alert: Alert): Promise<{ name: string | null; type: RoutedDetectionType | undefined }> {
  if (!alert.detectionId) return { name: null, type: undefined };
  const detection = await getDetection(ENGINE_CALLER, alert.detectionId).catch(() => null);
  if (!detection) return { name: null, type: undefined };
  const name = detection.spec.DisplayName ?? detection.spec.RuleID ?? detection.spec.PolicyID ?? null;
  return { name: typeof name === 'string' ? name : null, type: DETECTION_TYPES[detection.type] };
}

/** The destination an ALERT_DELIVERY system alert is about (its dedup key names it). */
const failingDestinationOf = (alert: Alert) =>
  alert.systemKind === 'ALERT_DELIVERY' && alert.dedupString.startsWith('ALERT_DELIVERY:')
    ? alert.dedupString.slice('ALERT_DELIVERY:'.length)
    : null;

async function enqueue(messages: readonly DeliveryMessage[]): Promise<void> {
  const QueueUrl = requireEnv(ENV.deliveryQueueUrl);
  for (let i = 0; i < messages.length; i += 10) {
    const batch = messages.slice(i, i + 10);
    const out = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: batch.map((m, n) => ({ Id: String(n), MessageBody: JSON.stringify(m) })),
      }),
    );
    if (out.Failed?.length) throw new Error(`${out.Failed.length} delivery messages were not queued: ${out.Failed[0].Message}`);
  }
}

export interface FanOutResult {
  /** Destinations the change was queued for. */
  readonly queued: string[];
  /** Why nothing was queued, when nothing was. */
  readonly skipped?: string;
}

/** Step 1: an alert change → one delivery message per destination. */
export async function fanOutAlertChange(message: AlertChangedMessage, now = new Date()): Promise<FanOutResult> {
  if (message?.kind !== 'alert-changed' || !DELIVERED_CHANGES.has(message.change))
    return { queued: [], skipped: `not a delivered change (${message?.change})` };
  const alert = await getAlert(message.alertId);
  if (!alert) return { queued: [], skipped: 'the alert no longer exists' };
  if (message.change === 'STATUS_CHANGED' || message.change === 'ASSIGNEE_CHANGED' || message.change === 'COMMENT_ADDED')
    return fanOutSync(alert, message, message.change, now);
  const detection = await detectionOf(alert);
  const resolved = await destinationsForAlert({ ...alert, detectionType: detection.type }, message.destinations);
  const failing = failingDestinationOf(alert);
  const targets = resolved.filter((d) => d.id !== failing && (message.change === 'CREATED' || supportsUpdates(d.outputType)));
  const change = message.change as DeliveryChange;
  const pending: DeliveryMessage[] = [];
  for (const destination of targets) {
    const m: DeliveryMessage = {
      kind: 'alert-delivery',
      alertId: alert.id,
      destinationId: destination.id,
      change,
      changedAt: message.changedAt,
    };
    if (await records.markPending(alert.id, destination, changeKey(m), now.toISOString())) pending.push(m);
  }
  await enqueue(pending);
  return { queued: pending.map((m) => m.destinationId), ...(targets.length ? {} : { skipped: 'no destination' }) };
}

type SyncChange = 'STATUS_CHANGED' | 'ASSIGNEE_CHANGED' | 'COMMENT_ADDED';

/** Which destinations ask for a sync of each change (their settings, no secrets needed), and what to say when none does. */
const SYNCS: Record<SyncChange, { wants: (sender: Sender, config: Readonly<Record<string, unknown>>) => boolean; none: string }> =
  {
    STATUS_CHANGED: {
      wants: (s, config) => !!s.syncStatus && !!s.syncsStatus?.(config),
      none: 'no destination syncs status',
    },
    ASSIGNEE_CHANGED: {
      wants: (s, config) => !!s.syncAssignee && !!s.syncsAssignee?.(config),
      none: 'no destination syncs assignees',
    },
    COMMENT_ADDED: {
      wants: (s, config) => !!s.syncComment && !!s.syncsComments?.(config),
      none: 'no destination syncs comments',
    },
  };

/**
 * A status or assignee change, or a new comment, goes only where an earlier delivery opened something for the
 * alert (a Jira issue, an Asana task: the record's reference) and the destination asks for that sync.
 */
async function fanOutSync(alert: Alert, message: AlertChangedMessage, change: SyncChange, now: Date): Promise<FanOutResult> {
  const pending: DeliveryMessage[] = [];
  let targets = 0;
  for (const record of await records.deliveriesOf(alert.id)) {
    const sender = senderOf(record.outputType);
    if (!record.reference || !sender) continue;
    const destination = await getDestination(record.destinationId).catch(() => null);
    if (!destination || !SYNCS[change].wants(sender, destination.config)) continue;
    targets++;
    const m: DeliveryMessage = {
      kind: 'alert-delivery',
      alertId: alert.id,
      destinationId: destination.id,
      change,
      changedAt: message.changedAt,
    };
    if (await records.markPending(alert.id, destination, changeKey(m), now.toISOString())) pending.push(m);
  }
  await enqueue(pending);
  return { queued: pending.map((m) => m.destinationId), ...(targets ? {} : { skipped: SYNCS[change].none }) };
}

/**
 * The comment a COMMENT_ADDED change tells of (the alert's comment made at `changedAt`), with its author's name as
 * the alert's activity names them (their email when they commented).
 */
async function commentOf(alert: Alert, changedAt: string): Promise<{ text: string; author: string } | null> {
  const comment = (await alertComments(alert.id)).find((c) => c.at === changedAt && c.text);
  if (!comment) return null;
  return { text: comment.text!, author: comment.actorName || 'A Caracal user' };
}

/** Adds the comment a COMMENT_ADDED change tells of to what `destination` opened for the alert. */
async function syncComment(alert: Alert, destination: DeliveryDestination, changedAt: string, options: SendOptions) {
  const comment = await commentOf(alert, changedAt);
  if (!comment) return { ok: false, statusCode: null, answer: 'The comment is no longer on the alert', permanent: true } as const;
  const reference = (await records.getDelivery(alert.id, destination.id))?.reference ?? '';
  return syncDestinationComment(destination, { alertId: alert.id, ...comment, reference }, options);
}

/** The alert's assignee (the users area): their email, null when unassigned; `deleted` when the user is gone. */
async function assigneeOf(alert: Alert): Promise<{ readonly email: string | null; readonly deleted: boolean }> {
  if (!alert.assigneeId) return { email: null, deleted: false };
  try {
    return { email: (await getUser(alert.assigneeId)).email, deleted: false };
  } catch (err) {
    if (err instanceof ApiError && err.errorType === 'NotFound') return { email: null, deleted: true };
    throw err;
  }
}

/**
 * Assigns what `destination` opened for the alert to the alert's assignee. A user deleted since the assignment
 * cannot be found later either: that fails at once, for good, instead of being retried to the dead-letter queue.
 */
async function syncAssignee(alert: Alert, destination: DeliveryDestination, options: SendOptions): Promise<DeliveryOutcome> {
  const reference = (await records.getDelivery(alert.id, destination.id))?.reference ?? '';
  const assignee = await assigneeOf(alert);
  if (assignee.deleted && reference)
    return {
      ok: false,
      statusCode: null,
      answer: `The assigned user no longer exists in Caracal; ${reference} was not assigned`,
      permanent: true,
    };
  return syncDestinationAssignee(destination, { alertId: alert.id, email: assignee.email, reference }, options);
}

/** One message of the delivery queue as the sender receives it (an SQS record). */
export interface QueuedDelivery {
  readonly body: string;
  readonly receiptHandle: string;
  /** How many times SQS has handed this message out, this time included. */
  readonly receiveCount: number;
}

export interface SendingOptions extends SendOptions {
  /** Seconds before the next attempt (retry.ts by default). */
  readonly retryDelay?: (attempt: number, retryAfterSeconds?: number) => number;
  /** Told of a newly raised ALERT_DELIVERY system alert (the alerts area notifies users by default). */
  readonly onSystemAlert?: SystemAlertListener;
}

export type SendingResult =
  | { readonly done: true; readonly what: string }
  | { readonly done: false; readonly what: string; readonly retryInSeconds: number };

function parseMessage(body: string): DeliveryMessage | null {
  try {
    const m = JSON.parse(body) as Partial<DeliveryMessage>;
    if (m.kind !== 'alert-delivery' || typeof m.alertId !== 'string' || typeof m.destinationId !== 'string') return null;
    if (typeof m.change !== 'string' || typeof m.changedAt !== 'string') return null;
    return m as DeliveryMessage;
  } catch {
    return null;
  }
}

async function raiseDeliveryFailure(
  destination: { id: string; displayName: string },
  alertId: string,
  answer: string,
  now: Date,
  onCreated?: SystemAlertListener,
): Promise<boolean> {
  if (!(await records.takeFailureAlertTurn(destination.id, now))) return false;
  await createSystemAlert(
    {
      kind: 'ALERT_DELIVERY',
      title: `Alert delivery to ${destination.displayName} failed`,
      description:
        `Caracal could not deliver alert ${alertId} to the destination ${destination.displayName}: ${answer}. ` +
        'Check the destination (Configure > Alert Destinations, Send Test Alert), then retry the delivery from the alert page.',
      severity: 'HIGH',
      dedupKey: `ALERT_DELIVERY:${destination.id}`,
    },
    { now, onCreated },
  );
  return true;
}

/** The first events a delivery sends (deliveryAlertOf keeps at most this many). */
const FIRST_EVENTS = 10;

/** Events read in this process, by alert and change (the newest few): a batch's other destinations of the change. */
const readHere = new Map<string, Promise<readonly Record<string, unknown>[]>>();
const READ_HERE_MAX = 32;

/**
 * The alert's first events for one change, read once for the change: the first send reads them from the lake and
 * keeps them with the alert's delivery records (records.keepEvents), and every other destination and attempt of the
 * same change sends those. A page that could not be read, or was empty (the signals may not be written yet), is
 * not kept: the next send reads again.
 */
function firstEvents(alert: Alert, key: string): Promise<readonly Record<string, unknown>[]> {
  const id = `${alert.id}\u0000${key}`;
  let found = readHere.get(id);
  if (!found) {
    found = readFirstEvents(alert, key);
    readHere.set(id, found);
    while (readHere.size > READ_HERE_MAX) readHere.delete(readHere.keys().next().value!);
    found.then((events) => events.length || readHere.delete(id)).catch(() => readHere.delete(id));
  }
  return found;
}

async function readFirstEvents(alert: Alert, key: string): Promise<readonly Record<string, unknown>[]> {
  const kept = await records.keptEvents(alert.id, key).catch((err: Error) => {
    console.warn(`delivery of ${alert.id}: its kept events could not be read (${err.message}); reading the lake`);
    return undefined;
  });
  if (kept) return kept;
  let events: Record<string, unknown>[];
  try {
    events = (await alertEvents(alert.id, { offset: 0, limit: FIRST_EVENTS })).rows;
  } catch (err) {
    console.warn(`delivery of ${alert.id}: its events could not be read (${(err as Error).message}); sending without them`);
    return [];
  }
  if (events.length)
    await records
      .keepEvents(alert.id, key, events)
      .catch((err: Error) => console.warn(`delivery of ${alert.id}: its events were not kept (${err.message})`));
  return events;
}

/** The alert as destinations receive it, with its detection's name and its first events (read once per change). */
async function deliveryAlertFor(alert: Alert, message: DeliveryMessage) {
  const [detection, events] = await Promise.all([detectionOf(alert), firstEvents(alert, changeKey(message))]);
  return deliveryAlertOf(alert, {
    appUrl: optionalEnv(ENV.appUrl) ?? '',
    detectionName: detection.name,
    events,
    change: message.change,
  });
}

/** Step 2: sends one queued delivery and records the attempt. */
export async function sendQueuedDelivery(queued: QueuedDelivery, options: SendingOptions = {}): Promise<SendingResult> {
  const now = options.now ?? new Date();
  const message = parseMessage(queued.body);
  if (!message) return { done: true, what: 'not a delivery message: dropped' };
  const key = changeKey(message);
  const alert = await getAlert(message.alertId);
  if (!alert) return { done: true, what: 'the alert no longer exists' };
  const destination = await getDestinationForDelivery(message.destinationId);
  if (!destination) return { done: true, what: 'the destination no longer exists' };

  const claimed = await records.claim(alert.id, destination, key, now);
  if (claimed === 'delivered') return { done: true, what: 'delivered already' };
  if (claimed === 'busy') return { done: false, what: 'another sender holds it', retryInSeconds: records.CLAIM_SECONDS };

  const outcome =
    message.change === 'STATUS_CHANGED'
      ? await syncDestinationStatus(
          destination,
          {
            alertId: alert.id,
            status: alert.status,
            reference: (await records.getDelivery(alert.id, destination.id))?.reference ?? '',
          },
          { ...options, now },
        )
      : message.change === 'ASSIGNEE_CHANGED'
        ? await syncAssignee(alert, destination, { ...options, now })
        : message.change === 'COMMENT_ADDED'
          ? await syncComment(alert, destination, message.changedAt, { ...options, now })
          : await sendToDestination(destination, await deliveryAlertFor(alert, message), { ...options, now });
  const final = !outcome.ok && (outcome.permanent === true || queued.receiveCount >= MAX_ATTEMPTS);
  const at = new Date().toISOString();
  await records.recordAttempt(alert.id, destination.id, key, { ...outcome, at, final });
  await recordAlertActivity(alert.id, {
    kind: 'DELIVERY',
    destinationId: destination.id,
    destinationName: destination.displayName,
    ok: outcome.ok,
    statusCode: outcome.statusCode,
    answer: outcome.answer,
    at,
  }).catch((err: Error) => console.warn(`delivery of ${alert.id}: the activity was not recorded (${err.message})`));

  if (outcome.ok) return { done: true, what: `delivered (${outcome.statusCode ?? 'ok'})` };
  if (final) {
    await raiseDeliveryFailure(destination, alert.id, outcome.answer, now, options.onSystemAlert);
    // A refused target or an incomplete configuration cannot succeed later: the message is done with. Out of
    // attempts, it comes back at once and SQS moves it to the dead-letter queue (maxReceiveCount).
    if (outcome.permanent) return { done: true, what: `failed for good: ${outcome.answer}` };
    return { done: false, what: `failed after ${queued.receiveCount} attempts: ${outcome.answer}`, retryInSeconds: 0 };
  }
  const delay = (options.retryDelay ?? retryDelaySeconds)(queued.receiveCount, outcome.retryAfterSeconds);
  return { done: false, what: `attempt ${queued.receiveCount} failed: ${outcome.answer}`, retryInSeconds: delay };
}

/**
 * A delivery whose last attempt failed before it could be sent or recorded (an error of the sender itself, not
 * an answer of the destination): SQS moves it to the dead-letter queue next, so the ALERT_DELIVERY system alert
 * is raised here (once an hour per destination), as the dead-letter check only counts that queue. Answers
 * whether an alert was raised (false before the last attempt, or when the hour's alert was raised already); never
 * throws.
 */
export async function reportUndeliverable(
  queued: Pick<QueuedDelivery, 'body' | 'receiveCount'>,
  reason: string,
  options: Pick<SendingOptions, 'now' | 'onSystemAlert'> = {},
): Promise<boolean> {
  if (queued.receiveCount < MAX_ATTEMPTS) return false;
  const message = parseMessage(queued.body);
  if (!message) return false;
  try {
    const destination = (await getDestinationForDelivery(message.destinationId).catch(() => null)) ?? {
      id: message.destinationId,
      displayName: message.destinationId,
    };
    return await raiseDeliveryFailure(
      destination,
      message.alertId,
      `the delivery failed in Caracal after ${queued.receiveCount} attempts (${reason})`,
      options.now ?? new Date(),
      options.onSystemAlert,
    );
  } catch (err) {
    console.error(`delivery of ${message.alertId}: the ALERT_DELIVERY alert could not be raised (${(err as Error).message})`);
    return false;
  }
}

/** Sets when a failed message comes back (its visibility), so the retry waits without anything sleeping. */
export async function delayRetry(receiptHandle: string, seconds: number): Promise<void> {
  await sqs().send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: requireEnv(ENV.deliveryQueueUrl),
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: Math.max(0, Math.min(43_200, Math.round(seconds))),
    }),
  );
}

// --- The API ----------------------------------------------------------------------------------------------

/** The deliveries of an alert, one per destination it was sent to. */
export async function alertDeliveries(alertId: string): Promise<records.DeliveryRecord[]> {
  if (!(await getAlert(alertId))) throw new ApiError('NotFound', 'Alert not found');
  return records.deliveriesOf(alertId);
}

/** Sends the alert to one destination again (a new change, so it is not skipped as delivered). */
export async function retryAlertDelivery(
  alertId: string,
  destinationId: string,
  now = new Date(),
): Promise<records.DeliveryRecord> {
  const alert = await getAlert(alertId);
  if (!alert) throw new ApiError('NotFound', 'Alert not found');
  const destination = await getDestinationForDelivery(destinationId);
  if (!destination) throw new ApiError('NotFound', 'Destination not found');
  const message: DeliveryMessage = {
    kind: 'alert-delivery',
    alertId,
    destinationId,
    change: 'RETRY',
    changedAt: now.toISOString(),
  };
  await records.markPending(alertId, destination, changeKey(message), now.toISOString());
  await enqueue([message]);
  const record = await records.getDelivery(alertId, destinationId);
  if (!record) throw new ApiError('NotFound', DELIVERY_NOT_FOUND);
  return record;
}
