// System alerts (SYSTEM_ERROR): raised by Caracal itself (a source stopped sending data, a delivery failed,
// a detection hit the alert limit, ...). One open alert per dedup key: while the alert for a key is OPEN or
// TRIAGED, raising it again counts one more occurrence on it; once it is resolved or closed, the next raise
// opens a new alert.
//
// Key: pk = DEDUP#SYSTEM#<dedupKey>  sk = DEDUP  { alertId, sequence }
// The alert id is derived from the key and its sequence (alert-id.ts), so a retry after a crash between the
// two writes re-creates the same alert. Every raise publishes the alert's change (created, or events added).
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients';
import { writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { OPEN_STATUSES, type Alert, type AlertSeverity, type SystemAlertKind } from '../../../core/alerts/model';
import { notifyUsersWith } from '../users';
import { alertId } from './alert-id';
import { publishAlertChange } from './changes';
import { addAlertEvents, getAlert, putAlert } from './repository';

export interface SystemAlertInput {
  readonly kind: SystemAlertKind;
  readonly title: string;
  readonly description: string;
  readonly severity: AlertSeverity;
  readonly sourceId?: string;
  /** What makes two raises the same problem, e.g. `SOURCE_NO_DATA:<sourceId>`. */
  readonly dedupKey: string;
}

export interface SystemAlertResult {
  readonly alert: Alert;
  /** True when this call opened a new alert (and users were told); false when it joined the open one. */
  readonly created: boolean;
}

/** Told about every newly opened system alert. */
export type SystemAlertListener = (alert: Alert) => Promise<void>;

/** The default listener: a SYSTEM_ERROR notification to every user who may read alerts. */
async function notifyAlertReaders(alert: Alert): Promise<void> {
  await notifyUsersWith({
    permission: 'AlertRead',
    topic: 'SYSTEM_ERROR',
    level: alert.severity === 'INFO' || alert.severity === 'LOW' ? 'WARNING' : 'ERROR',
    title: alert.title,
    message: alert.description ?? '',
    alertId: alert.id,
  });
}

const TITLE_MAX = 1000;
const ATTEMPTS = 5;

const dedupItemKey = (dedupKey: string) => ({ pk: `DEDUP#SYSTEM#${dedupKey}`, sk: 'DEDUP' });
const table = () => requireEnv(ENV.entityTable);

export async function createSystemAlert(
  input: SystemAlertInput,
  options: { now?: Date; onCreated?: SystemAlertListener } = {},
): Promise<SystemAlertResult> {
  const now = (options.now ?? new Date()).toISOString();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const out = await dynamo().send(
      new GetCommand({ TableName: table(), Key: dedupItemKey(input.dedupKey), ConsistentRead: true }),
    );
    const current = out.Item as { alertId: string; sequence: number } | undefined;
    if (current) {
      const existing = await getAlert(current.alertId);
      if (existing && OPEN_STATUSES.includes(existing.status)) return join(existing, now);
      if (!existing) return open(input, current.alertId, now, options.onCreated);
    }
    const sequence = (current?.sequence ?? 0) + 1;
    const id = alertId(`system:${input.kind}`, sequence, input.dedupKey);
    const taken = await writeIf(() =>
      dynamo().send(
        new UpdateCommand({
          TableName: table(),
          Key: dedupItemKey(input.dedupKey),
          UpdateExpression: 'SET alertId = :id, #seq = :seq',
          ConditionExpression: current ? '#seq = :prev' : 'attribute_not_exists(pk)',
          ExpressionAttributeNames: { '#seq': 'sequence' },
          ExpressionAttributeValues: { ':id': id, ':seq': sequence, ...(current ? { ':prev': current.sequence } : {}) },
        }),
      ),
    );
    if (taken) return open(input, id, now, options.onCreated);
  }
  throw new Error(`system alert ${input.dedupKey} kept changing while being raised`);
}

async function open(
  input: SystemAlertInput,
  id: string,
  now: string,
  onCreated?: SystemAlertListener,
): Promise<SystemAlertResult> {
  const alert: Alert = {
    id,
    type: 'SYSTEM_ERROR',
    title: input.title.slice(0, TITLE_MAX),
    severity: input.severity,
    status: 'OPEN',
    detectionId: null,
    systemKind: input.kind,
    sourceId: input.sourceId ?? null,
    description: input.description,
    logTypes: [],
    eventCount: 1,
    firstEventAt: now,
    lastEventAt: now,
    createdAt: now,
    updatedAt: now,
    dedupString: input.dedupKey,
    alertContext: null,
    runbook: null,
    reference: null,
    signalsTable: null,
    assigneeId: null,
    revision: 0,
  };
  // Another raise opened it between our read and our write: this one joins it.
  if (!(await putAlert(alert))) return join(alert, now);
  await publishAlertChange(alert, 'CREATED', now);
  await (onCreated ?? notifyAlertReaders)(alert);
  return { alert, created: true };
}

/** One more occurrence on an open alert. */
async function join(alert: Alert, now: string): Promise<SystemAlertResult> {
  await addAlertEvents(alert.id, 1, now, now);
  await publishAlertChange(alert, 'EVENTS_ADDED', now);
  return { alert: (await getAlert(alert.id)) ?? alert, created: false };
}
