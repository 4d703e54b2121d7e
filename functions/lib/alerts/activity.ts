// An alert's activity items, stored in the alert's partition:
//   pk = ALERT#<id>   sk = ACTIVITY#<at>#<sequence>
// dynalite (the local stand-in) has no transactions, so history and state are kept together the way the design
// says (conditional updates and idempotent keys): a change of the alert is ONE conditional UpdateItem that also
// stores its activity item on the alert (`lastActivity`, numbered by `activitySeq`); the activity item is then
// put under its own key (idempotently, so putting it again changes nothing). Whoever reads the history or
// makes the next change puts the alert's `lastActivity` first when it is missing, so no change is ever without
// its history and no history item without its change. A delivery attempt changes nothing on the alert: it is
// put on its own, when the alert exists.
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  ANSWER_MAX,
  type AlertActivity,
  type AlertActivityKind,
  type DeliveryActivityInput,
} from '../../../core/alerts/activity';
import { dynamo } from '../clients';
import { queryItems, writeIf } from '../dynamo-lists';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';

const table = () => requireEnv(ENV.entityTable);
const ACTIVITY = 'ACTIVITY#';
export const ALERT_NOT_FOUND = 'Alert not found';

/** What a change says of itself; the rest of the item is filled in. */
export type ActivityInput = Partial<Omit<AlertActivity, 'id' | 'alertId' | 'kind' | 'at'>> & {
  readonly kind: AlertActivityKind;
  readonly at: string;
};

/**
 * An activity (every field, absent ones as null). Its id is `<at>#<sequence>` for a change numbered on the alert
 * (activitySeq), else `<at>#<random>`.
 */
export function activityOf(alertId: string, input: ActivityInput, sequence?: number, storedId?: string): AlertActivity {
  const id =
    storedId ??
    `${input.at}#${sequence === undefined ? randomBytes(6).toString('hex') : `s${String(sequence).padStart(9, '0')}`}`;
  const activity: AlertActivity = {
    id,
    alertId,
    kind: input.kind,
    at: input.at,
    actorId: input.actorId ?? null,
    actorName: input.actorName ?? null,
    from: input.from ?? null,
    to: input.to ?? null,
    text: input.text ?? null,
    eventCount: input.eventCount ?? null,
    destinationId: input.destinationId ?? null,
    destinationName: input.destinationName ?? null,
    ok: input.ok ?? null,
    statusCode: input.statusCode ?? null,
    answer: input.answer ?? null,
  };
  return activity;
}

/** An activity without its absent (null) fields, as stored: an item holds only what the change says. */
export function compactActivity(activity: AlertActivity): Partial<AlertActivity> {
  return Object.fromEntries(Object.entries(activity).filter(([, v]) => v !== null)) as Partial<AlertActivity>;
}

/** A stored activity with its absent fields as null again. */
export function fullActivity(stored: Partial<AlertActivity>): AlertActivity {
  return activityOf(stored.alertId!, stored as ActivityInput, undefined, stored.id);
}

/** The stored item of an activity. */
export const activityItem = (activity: AlertActivity | Partial<AlertActivity>): Record<string, unknown> => ({
  pk: `ALERT#${activity.alertId}`,
  sk: `${ACTIVITY}${activity.id}`,
  ...compactActivity(activity as AlertActivity),
});

/** Puts an activity item unless it is there already (putting the same change twice keeps one item). */
export async function putActivity(activity: AlertActivity | Partial<AlertActivity>): Promise<void> {
  await writeIf(() =>
    dynamo().send(
      new PutCommand({ TableName: table(), Item: activityItem(activity), ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
}

function toActivity(item: Record<string, unknown>): AlertActivity {
  const { pk: _pk, sk: _sk, ...activity } = item;
  return fullActivity(activity as Partial<AlertActivity>);
}

function deliveryError(input: DeliveryActivityInput): string | null {
  if (!input || input.kind !== 'DELIVERY') return "kind must be 'DELIVERY'";
  if (typeof input.destinationId !== 'string' || !input.destinationId) return 'destinationId is required';
  if (typeof input.destinationName !== 'string') return 'destinationName is required';
  if (typeof input.ok !== 'boolean') return 'ok must be true or false';
  if (input.statusCode !== undefined && input.statusCode !== null && !Number.isInteger(input.statusCode))
    return 'statusCode must be a whole number';
  if (input.at !== undefined && Number.isNaN(Date.parse(input.at))) return 'at must be an ISO 8601 time';
  return null;
}

/**
 * Adds a delivery attempt to an alert's activity ("Delivered to <name>", "Delivery to <name> failed: 500 ...").
 * NotFound when the alert does not exist; the answer is kept to its first ANSWER_MAX characters.
 */
export async function recordAlertActivity(alertId: string, input: DeliveryActivityInput): Promise<AlertActivity> {
  const problem = deliveryError(input);
  if (problem) throw new ApiError('InvalidInput', problem);
  const alert = await dynamo().send(
    new GetCommand({ TableName: table(), Key: { pk: `ALERT#${alertId}`, sk: 'ALERT' }, ProjectionExpression: 'pk' }),
  );
  if (!alert.Item) throw new ApiError('NotFound', ALERT_NOT_FOUND);
  const activity = activityOf(alertId, {
    kind: 'DELIVERY',
    at: input.at ? new Date(input.at).toISOString() : new Date().toISOString(),
    destinationId: input.destinationId,
    destinationName: input.destinationName,
    ok: input.ok,
    statusCode: input.statusCode ?? null,
    answer: typeof input.answer === 'string' ? input.answer.slice(0, ANSWER_MAX) : null,
  });
  await putActivity(activity);
  return activity;
}

/**
 * An alert's stored activity, oldest first (every item; an alert's history is read whole). The alert's own
 * `lastActivity` is the caller's to merge (see repository.ts).
 */
export async function queryActivity(alertId: string, options: { kind?: AlertActivityKind } = {}): Promise<AlertActivity[]> {
  const names: Record<string, string> = { '#pk': 'pk', '#sk': 'sk' };
  const values: Record<string, unknown> = { ':pk': `ALERT#${alertId}`, ':prefix': ACTIVITY };
  if (options.kind) {
    names['#kind'] = 'kind';
    values[':kind'] = options.kind;
  }
  const { items } = await queryItems(
    {
      TableName: table(),
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ...(options.kind ? { FilterExpression: '#kind = :kind' } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: true,
    },
    { map: toActivity },
  );
  return items;
}
